import { useState } from 'preact/hooks';
import type {
  ExperimentCaseData,
  ExperimentData,
  ExperimentSideData,
  ExperimentScorerData,
  ViewerData,
} from '../../src/viewer-data.js';
import { count, dollars } from '../../src/format.js';
import { buildRuns } from '../model/run-model.js';
import { DiffPage } from './diff-page.js';
import { TracePage } from './trace-page.js';

type Opened = { readonly kind: 'trace' | 'diff'; readonly case: ExperimentCaseData };

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;

/**
 * An experiment: its scorers' means (against the baseline, the difference and its 95% interval),
 * then a row per case and a column per scorer with the case's score and how it moved. A case opens
 * its trace, or the baseline's trace of it and its own side by side in the diff view.
 */
export function ExperimentPage({ data }: { data: ExperimentData }) {
  const [opened, setOpened] = useState<Opened | undefined>(undefined);
  const [onlyChanged, setOnlyChanged] = useState(false);
  if (opened !== undefined)
    return <OpenedCase data={data} opened={opened} onBack={() => setOpened(undefined)} />;
  const cases = onlyChanged
    ? data.cases.filter(each => Object.values(each.scores).some(score => score.change !== 'same'))
    : data.cases;
  return (
    <div class="page experiment-page">
      <header class="header">
        <h1>
          agent-trace eval <span class="muted">·</span> {data.candidate.eval}
        </h1>
        <p class="sides" data-testid="experiment-sides">
          {data.baseline === undefined ? null : (
            <>
              <Side side={data.baseline} class="side-a" /> →{' '}
            </>
          )}
          <Side side={data.candidate} class="side-b" />
        </p>
      </header>
      <main class="experiment-main">
        <ScorerTable scorers={data.scorers} withBaseline={data.baseline !== undefined} />
        {data.baseline === undefined ? null : (
          <label class="scope">
            <input
              type="checkbox"
              checked={onlyChanged}
              onChange={event => setOnlyChanged(event.currentTarget.checked)}
            />{' '}
            only cases that moved
          </label>
        )}
        <CaseTable
          cases={cases}
          scorers={data.scorers.map(each => each.name)}
          withBaseline={data.baseline !== undefined}
          onOpen={setOpened}
        />
      </main>
    </div>
  );
}

function Side({ side, class: className }: { side: ExperimentSideData; class: string }) {
  const cost =
    side.costUsd === undefined
      ? ''
      : ` · ${dollars(side.costUsd)}${(side.unpricedCalls ?? 0) > 0 ? ` + ${count(side.unpricedCalls ?? 0)} unpriced` : ''}`;
  return (
    <span class={className}>
      {side.id}
      <span class="muted">
        {side.label === undefined ? '' : ` (${side.label})`} · {count(side.runs)} runs
        {side.status === undefined || side.status === 'completed' ? '' : ` · ${side.status}`}
        {cost}
      </span>
    </span>
  );
}

function ScorerTable({
  scorers,
  withBaseline,
}: {
  scorers: readonly ExperimentScorerData[];
  withBaseline: boolean;
}) {
  return (
    <table class="scorers" aria-label="Scorers">
      <thead>
        <tr>
          <th>scorer</th>
          {withBaseline ? <th>baseline</th> : null}
          <th>mean</th>
          {withBaseline ? <th>difference (95% interval)</th> : null}
        </tr>
      </thead>
      <tbody>
        {scorers.map(scorer => (
          <tr>
            <th scope="row">{scorer.name}</th>
            {withBaseline ? <td>{scorer.baseline?.toFixed(3) ?? '–'}</td> : null}
            <td>{scorer.candidate.toFixed(3)}</td>
            {withBaseline ? (
              <td class={(scorer.difference ?? 0) < 0 ? 'error-text' : ''}>
                {scorer.difference === undefined
                  ? '–'
                  : `${signed(scorer.difference)} (${signed(scorer.interval?.[0] ?? 0)} to ${signed(scorer.interval?.[1] ?? 0)})`}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const changeMarks: Readonly<Record<string, string>> = {
  regressed: '▼',
  improved: '▲',
  flaky: '≈',
  same: '',
  new: '',
};

function CaseTable({
  cases,
  scorers,
  withBaseline,
  onOpen,
}: {
  cases: readonly ExperimentCaseData[];
  scorers: readonly string[];
  withBaseline: boolean;
  onOpen: (opened: Opened) => void;
}) {
  return (
    <table class="cases" aria-label="Cases">
      <thead>
        <tr>
          <th>case</th>
          {scorers.map(name => (
            <th>{name}</th>
          ))}
          <th />
        </tr>
      </thead>
      <tbody>
        {cases.map(each => (
          <tr data-case={each.id}>
            <th scope="row">
              <button
                type="button"
                class="link"
                disabled={each.trace === undefined}
                onClick={() => onOpen({ kind: 'trace', case: each })}
              >
                {each.id}
              </button>
              {each.trials > 1 ? <span class="muted"> ×{each.trials}</span> : null}
              {each.error === undefined ? null : <span class="error-text"> failed</span>}
              <CaseTranscript lines={each.transcript} />
            </th>
            {scorers.map(name => {
              const score = each.scores[name];
              if (score === undefined) return <td class="muted">–</td>;
              return (
                <td class={`score change-${score.change}`} title={score.reason} data-scorer={name}>
                  {score.score.toFixed(2)}
                  {withBaseline && score.baseline !== undefined && score.change !== 'same'
                    ? ` ${changeMarks[score.change] ?? ''} ${signed(score.score - score.baseline)}`
                    : ''}
                  <div class="reason">{score.reason}</div>
                </td>
              );
            })}
            <td>
              {each.diff === undefined ? null : (
                <button
                  type="button"
                  class="link"
                  onClick={() => onOpen({ kind: 'diff', case: each })}
                >
                  diff with baseline
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function OpenedCase({
  data,
  opened,
  onBack,
}: {
  data: ExperimentData;
  opened: Opened;
  onBack: () => void;
}) {
  const back = (
    <button type="button" class="back link" onClick={onBack}>
      ← experiment {data.candidate.id}
    </button>
  );
  const { case: shown } = opened;
  const trace = shown.trace === undefined ? undefined : data.traces[shown.trace];
  const baselineTrace =
    shown.baselineTrace === undefined ? undefined : data.traces[shown.baselineTrace];
  if (opened.kind === 'diff' && trace !== undefined && baselineTrace !== undefined) {
    const diff: Extract<ViewerData, { mode: 'diff' }> = {
      mode: 'diff',
      title: `case ${shown.id}`,
      expectedName: `${data.baseline?.id ?? 'baseline'} · ${shown.id}`,
      actualName: `${data.candidate.id} · ${shown.id} (trial ${shown.trial})`,
      expected: baselineTrace.events,
      actual: trace.events,
      runs: shown.diff ?? [],
    };
    return <DiffPage data={diff} aside={back} />;
  }
  return (
    <TracePage
      title={`case ${shown.id} · trial ${shown.trial}`}
      runs={trace === undefined ? [] : buildRuns(trace.events, '', trace.evaluations)}
      warnings={trace?.warnings ?? []}
      aside={back}
    />
  );
}

/** A conversation case's transcript, folded under its id: who said what, turn by turn. */
function CaseTranscript({ lines }: { lines: ExperimentCaseData['transcript'] }) {
  if (lines === undefined || lines.length === 0) return null;
  const turns = lines.reduce((most, line) => Math.max(most, line.turn), 0);
  return (
    <details class="case-transcript">
      <summary class="muted">
        transcript · {turns} turn{turns === 1 ? '' : 's'}
      </summary>
      <ol>
        {lines.map(line => (
          <li class={line.role}>
            <span class="who">{line.role}</span> {line.text}
          </li>
        ))}
      </ol>
    </details>
  );
}
