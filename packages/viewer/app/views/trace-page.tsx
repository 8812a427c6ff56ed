import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { agentGraph } from '../model/agent-graph.js';
import { count, dollars, duration } from '../../src/format.js';
import { sumTotals, type RunModel } from '../model/run-model.js';
import { AgentGraphView } from './agent-graph-view.js';
import { ConversationView } from './conversation-view.js';
import { FeedbackPanel, type PageWrites } from './feedback-panel.js';
import { Inspector } from './inspector.js';
import { matches, noFilter, RunList, type RunFilter } from './run-list.js';
import { Waterfall } from './waterfall.js';

/** Props of {@link TracePage}. */
export interface TracePageProps {
  readonly title: string;
  readonly runs: readonly RunModel[];
  readonly warnings: readonly string[];
  /** Drawn at the left of the header (the live page's file picker). */
  readonly aside?: ComponentChildren;
  /** Shown when there are no runs. */
  readonly empty?: string;
  /**
   * The run list's filters, when the runs come filtered (a served library asks its index): the
   * page then shows the runs as given.
   */
  readonly filters?: ComponentChildren;
  /** The chosen run's key, when the page that holds the runs chooses (a served page). */
  readonly chosen?: string;
  readonly onChoose?: (key: string) => void;
  /** What the page may write (a served page): feedback, dataset cases; without, feedback is only shown. */
  readonly writes?: PageWrites;
}

function Totals({ runs }: { runs: readonly RunModel[] }) {
  const totals = sumTotals(runs);
  return (
    <dl class="totals" aria-label="Totals">
      <div>
        <dt>runs</dt>
        <dd>{count(runs.length)}</dd>
      </div>
      <div>
        <dt>tokens</dt>
        <dd>
          {count(totals.tokensIn)} → {count(totals.tokensOut)}
        </dd>
      </div>
      <div>
        <dt>cost</dt>
        <dd title="The priced model calls; a model with no price has an unknown cost">
          {totals.unpricedCalls > 0 && totals.costUsd === 0
            ? 'unknown'
            : `${dollars(totals.costUsd)}${totals.unpricedCalls > 0 ? ` + ${count(totals.unpricedCalls)} unpriced` : ''}`}
        </dd>
      </div>
      <div>
        <dt>duration</dt>
        <dd>{duration(totals.durationMs)}</dd>
      </div>
      <div>
        <dt>model calls</dt>
        <dd>{count(totals.llmCalls)}</dd>
      </div>
      <div>
        <dt>tool calls</dt>
        <dd>{count(totals.toolCalls)}</dd>
      </div>
      <div>
        <dt>errors</dt>
        <dd class={totals.errors > 0 ? 'error-text' : ''}>{count(totals.errors)}</dd>
      </div>
    </dl>
  );
}

/** Runs, waterfall, inspector and agent graph of a trace. */
export function TracePage(props: TracePageProps) {
  const { title, runs, warnings, aside, empty, filters } = props;
  const [filter, setFilter] = useState<RunFilter>(noFilter);
  const [ownChoice, setOwnChoice] = useState<string | undefined>(undefined);
  const chosenRun = props.chosen ?? ownChoice;
  const [selectedSeq, setSelectedSeq] = useState<number | undefined>(undefined);
  const shown = useMemo(
    () => (filters === undefined ? runs.filter(run => matches(run, filter)) : runs),
    [runs, filter, filters === undefined],
  );
  const run = shown.find(candidate => candidate.key === chosenRun) ?? shown.at(-1);
  const onChoose = props.onChoose;
  useEffect(() => {
    // The page's own filter hid the chosen run: the run shown instead is the one chosen.
    if (run !== undefined && props.chosen !== undefined && run.key !== props.chosen)
      onChoose?.(run.key);
  }, [run?.key, props.chosen]);
  /** A run chosen (in the list, or a conversation's turn): shown from its top. */
  const choose = (key: string): void => {
    setOwnChoice(key);
    onChoose?.(key);
    setSelectedSeq(undefined);
  };
  const selectedIndex =
    run === undefined || selectedSeq === undefined ? -1 : run.rows.indexOfSeq(selectedSeq);
  const row = run?.rows.rowAt(selectedIndex);
  const events = run?.rows.eventsAt(selectedIndex);
  return (
    <div class="page">
      <header class="header">
        <h1>
          agent-trace <span class="muted">·</span> {title}
        </h1>
        <Totals runs={shown} />
      </header>
      <Warnings warnings={warnings} />
      <div class="columns">
        <div class="left">
          {aside}
          <RunList
            runs={runs}
            shown={shown}
            filter={filter}
            onFilter={setFilter}
            filters={filters}
            selected={run?.key}
            onSelect={choose}
          />
        </div>
        <main class="main">
          {run === undefined ? (
            <p class="muted empty">
              {runs.length === 0
                ? (empty ?? 'This trace has no runs.')
                : 'No run matches the filter.'}
            </p>
          ) : (
            <RunView
              run={run}
              runs={runs}
              shown={shown}
              selected={selectedSeq}
              onSelect={setSelectedSeq}
              onOpen={choose}
              {...(props.writes === undefined ? {} : { writes: props.writes })}
            />
          )}
        </main>
        {run === undefined ? null : <Inspector row={row} events={events} run={run} />}
      </div>
    </div>
  );
}

/** The main view's tabs: a conversation's transcript only for a turn of one. */
type Tab = 'waterfall' | 'graph' | 'conversation';

/**
 * The chosen run: its waterfall, the agent graph of it (or of every run shown), or, for a turn of
 * a conversation, the conversation's transcript.
 */
function RunView({
  run,
  runs,
  shown,
  selected,
  onSelect,
  onOpen,
  writes,
}: {
  readonly run: RunModel;
  readonly runs: readonly RunModel[];
  readonly shown: readonly RunModel[];
  readonly selected: number | undefined;
  readonly onSelect: (seq: number) => void;
  readonly onOpen: (key: string) => void;
  readonly writes?: PageWrites;
}) {
  const [chosenTab, setTab] = useState<Tab>('waterfall');
  const tab = chosenTab === 'conversation' && run.turn === undefined ? 'waterfall' : chosenTab;
  const [graphScope, setGraphScope] = useState<'run' | 'shown'>('run');
  const graph = useMemo(
    () => agentGraph(graphScope === 'run' ? run.graph : shown.flatMap(each => each.graph)),
    [graphScope, run, shown],
  );
  return (
    <>
      <div class="tabs" role="tablist">
        <Tabs tab={tab} onTab={setTab} conversation={run.turn !== undefined} />
        <span class="muted run-title">
          run {run.id} · session {run.session}
          {run.file === '' ? '' : ` · ${run.file}`}
        </span>
      </div>
      <FeedbackPanel run={run} {...(writes === undefined ? {} : { writes })} />
      {tab === 'conversation' ? (
        <ConversationView
          run={run}
          runs={runs}
          onOpen={key => {
            onOpen(key);
            setTab('waterfall');
          }}
        />
      ) : tab === 'waterfall' ? (
        <Waterfall key={run.key} run={run} selected={selected} onSelect={onSelect} />
      ) : (
        <>
          <label class="scope">
            <input
              type="checkbox"
              checked={graphScope === 'shown'}
              onChange={event => setGraphScope(event.currentTarget.checked ? 'shown' : 'run')}
            />{' '}
            every run shown ({shown.length})
          </label>
          <AgentGraphView graph={graph} />
        </>
      )}
    </>
  );
}

/** The main view's tabs: the waterfall, the agent graph, and a turn's conversation. */
function Tabs({
  tab,
  onTab,
  conversation,
}: {
  readonly tab: Tab;
  readonly onTab: (tab: Tab) => void;
  readonly conversation: boolean;
}) {
  const tabs: readonly (readonly [Tab, string])[] = [
    ['waterfall', 'Waterfall'],
    ['graph', 'Agent graph'],
    ...(conversation ? [['conversation', 'Conversation'] as const] : []),
  ];
  return (
    <>
      {tabs.map(([name, label]) => (
        <button type="button" role="tab" aria-selected={tab === name} onClick={() => onTab(name)}>
          {label}
        </button>
      ))}
    </>
  );
}

/** What the reader warned about (a torn tail, newer content), when anything. */
function Warnings({ warnings }: { readonly warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul class="warnings" aria-label="Warnings">
      {warnings.map(warning => (
        <li>{warning}</li>
      ))}
    </ul>
  );
}
