import type { ComponentChildren } from 'preact';
import { count, duration } from '../../src/format.js';
import type { RunModel } from '../model/run-model.js';
import { VirtualList } from './virtual-list.js';

/** Which runs the list shows. */
export interface RunFilter {
  /** A stop reason, `running` for runs not ended, or '' for all. */
  readonly stopReason: string;
  /** An agent that took part, or '' for all. */
  readonly agent: string;
  readonly errorsOnly: boolean;
}

/** Every run. */
export const noFilter: RunFilter = { stopReason: '', agent: '', errorsOnly: false };

/** True when the run passes the filter. */
export function matches(run: RunModel, filter: RunFilter): boolean {
  if (filter.stopReason !== '' && (run.stopReason ?? 'running') !== filter.stopReason) return false;
  if (filter.agent !== '' && !run.agents.includes(filter.agent)) return false;
  return !filter.errorsOnly || run.totals.errors > 0 || run.stopReason === 'error';
}

/** Props of {@link RunList}. */
export interface RunListProps {
  readonly runs: readonly RunModel[];
  readonly shown: readonly RunModel[];
  readonly filter: RunFilter;
  readonly onFilter: (filter: RunFilter) => void;
  /** Filters of the runs' source, shown instead of the list's own. */
  readonly filters?: ComponentChildren;
  /** The chosen run's key. */
  readonly selected: string | undefined;
  readonly onSelect: (key: string) => void;
}

/** The runs of the page, filterable by stop reason, agent and errors. */
export function RunList(props: RunListProps) {
  const { runs, shown, selected, onSelect } = props;
  const selectedIndex = shown.findIndex(run => run.key === selected);
  return (
    <nav class="runs" aria-label="Runs">
      {props.filters ?? <OwnFilters runs={runs} filter={props.filter} onFilter={props.onFilter} />}
      <p class="muted run-count">
        {count(shown.length)} of {count(runs.length)} run{runs.length === 1 ? '' : 's'}
      </p>
      <VirtualList
        label="Run list"
        className="run-items"
        count={shown.length}
        rowHeight={58}
        {...(selectedIndex === -1 ? {} : { revealIndex: selectedIndex })}
        renderRow={(index, top) => {
          const run = shown[index];
          return run === undefined ? null : (
            <RunItem
              key={run.key}
              run={run}
              top={top}
              selected={run.key === selected}
              onSelect={onSelect}
            />
          );
        }}
      />
    </nav>
  );
}

/** The page's own filters of the runs it holds: stop reason, agent, errors. */
function OwnFilters({
  runs,
  filter,
  onFilter,
}: {
  readonly runs: readonly RunModel[];
  readonly filter: RunFilter;
  readonly onFilter: (filter: RunFilter) => void;
}) {
  const reasons = [...new Set(runs.map(run => run.stopReason ?? 'running'))].sort();
  const agents = [...new Set(runs.flatMap(run => run.agents))].sort();
  return (
    <div class="filters">
      <select
        aria-label="Stop reason"
        value={filter.stopReason}
        onChange={event => onFilter({ ...filter, stopReason: event.currentTarget.value })}
      >
        <option value="">every stop reason</option>
        {reasons.map(reason => (
          <option value={reason}>{reason}</option>
        ))}
      </select>
      <select
        aria-label="Agent"
        value={filter.agent}
        onChange={event => onFilter({ ...filter, agent: event.currentTarget.value })}
      >
        <option value="">every agent</option>
        {agents.map(agent => (
          <option value={agent}>{agent}</option>
        ))}
      </select>
      <label>
        <input
          type="checkbox"
          checked={filter.errorsOnly}
          onChange={event => onFilter({ ...filter, errorsOnly: event.currentTarget.checked })}
        />{' '}
        with errors only
      </label>
    </div>
  );
}

/** One run in the list: its stop reason, entry agent, duration, start, tokens, tools, errors. */
function RunItem({
  run,
  top,
  selected,
  onSelect,
}: {
  readonly run: RunModel;
  readonly top: number;
  readonly selected: boolean;
  readonly onSelect: (run: string) => void;
}) {
  const reason = run.stopReason ?? 'running';
  return (
    <button
      type="button"
      class={`run-item ${selected ? 'selected' : ''}`}
      style={{ top: `${top}px` }}
      data-run={run.id}
      onClick={() => onSelect(run.key)}
    >
      <span class="run-line">
        <span
          class={`badge stop-${reason === 'completed' ? 'ok' : reason === 'running' ? 'open' : 'warn'}`}
        >
          {reason}
        </span>
        <strong>{run.entryAgent}</strong>
        {run.turn === undefined ? null : (
          <span class="muted turn-of" title={`conversation ${run.turn.conversation}`}>
            {run.turn.user === true ? 'user · ' : ''}turn {run.turn.turn}
          </span>
        )}
        <span class="muted right">{duration(run.totals.durationMs)}</span>
      </span>
      <span class="run-line muted">
        {new Date(run.startedAt).toISOString().replace('T', ' ').slice(0, 19)} ·{' '}
        {count(run.totals.tokensIn + run.totals.tokensOut)} tok · {run.totals.toolCalls} tools
        {run.totals.errors > 0 ? (
          <span class="error-text"> · {run.totals.errors} errors</span>
        ) : null}
      </span>
    </button>
  );
}
