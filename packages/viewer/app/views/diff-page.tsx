import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { TraceEvent } from '@agent-trace/core';
import type { AlignedStep } from '@agent-trace/trace';
import type { RunDiffData, ViewerData } from '../../src/viewer-data.js';
import { count } from '../../src/format.js';
import { VirtualList } from './virtual-list.js';

type DiffData = Extract<ViewerData, { mode: 'diff' }>;

const rowHeight = 26;

const kindWords: Readonly<Record<AlignedStep['kind'], string>> = {
  same: 'same',
  changed: 'changed',
  missing: 'only in the first',
  extra: 'only in the second',
};

/** The step where the two runs first part ways; undefined when they never do. */
function firstDivergence(steps: readonly AlignedStep[]): number | undefined {
  const index = steps.findIndex(step => step.kind !== 'same');
  return index === -1 ? undefined : index;
}

function eventAt(
  events: readonly TraceEvent[],
  run: string | undefined,
  seq: number | undefined,
): TraceEvent | undefined {
  if (run === undefined || seq === undefined) return undefined;
  return events.find(event => event.run === run && event.seq === seq);
}

function StepDetails({
  step,
  pair,
  data,
}: {
  step: AlignedStep;
  pair: RunDiffData;
  data: DiffData;
}) {
  const sides = [
    {
      name: data.expectedName,
      line: step.expected,
      event: eventAt(data.expected, pair.expectedRun, step.expected?.seq),
    },
    {
      name: data.actualName,
      line: step.actual,
      event: eventAt(data.actual, pair.actualRun, step.actual?.seq),
    },
  ];
  return (
    <aside class="inspector" aria-label="Step details">
      <h2>
        <span class={`badge diff-${step.kind}`}>{kindWords[step.kind]}</span>
      </h2>
      {step.explanation === undefined ? null : (
        <section class="inspector-section" aria-label="What differs">
          <h3>What differs in the request</h3>
          {step.explanation.map(change => (
            <pre class="text change">{change.summary}</pre>
          ))}
        </section>
      )}
      {sides.map(side => (
        <section class="inspector-section">
          <h3 class="side-name">
            {side.name}
            {side.line === undefined ? '' : ` · seq ${side.line.seq} · ${side.line.agent}`}
          </h3>
          <pre class="text">{side.line?.text ?? '(no such step)'}</pre>
          {side.event === undefined ? null : (
            <details class="raw">
              <summary>raw event</summary>
              <pre class="text">{JSON.stringify(side.event, null, 2)}</pre>
            </details>
          )}
        </section>
      ))}
    </aside>
  );
}

function DiffHeader({ data, aside }: { data: DiffData; aside?: ComponentChildren }) {
  return (
    <header class="header">
      {aside}
      <h1>
        agent-trace diff <span class="muted">·</span> {data.title}
      </h1>
      <p class="sides">
        <span class="side-a">{data.expectedName}</span> →{' '}
        <span class="side-b">{data.actualName}</span>
      </p>
    </header>
  );
}

/** Two runs aligned step by step, the first divergence highlighted, with what differs. */
export function DiffPage({ data, aside }: { data: DiffData; aside?: ComponentChildren }) {
  const firstDiffering = Math.max(
    0,
    data.runs.findIndex(pair => pair.steps.some(step => step.kind !== 'same')),
  );
  const [pairIndex, setPairIndex] = useState(firstDiffering);
  const pair = data.runs[pairIndex];
  const steps = pair?.steps ?? [];
  const first = useMemo(() => firstDivergence(steps), [steps]);
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const selected = chosen ?? first;
  const step = selected === undefined ? undefined : steps[selected];
  const differing = steps.filter(each => each.kind !== 'same').length;
  const firstStep = first === undefined ? undefined : steps[first];
  const firstSeq =
    firstStep === undefined ? undefined : (firstStep.actual ?? firstStep.expected)?.seq;
  return (
    <div class="page diff-page">
      <DiffHeader data={data} aside={aside} />
      <div class="columns">
        <nav class="left runs" aria-label="Run pairs">
          {data.runs.map((each, index) => (
            <PairItem
              pair={each}
              selected={index === pairIndex}
              onSelect={() => {
                setPairIndex(index);
                setChosen(undefined);
              }}
            />
          ))}
        </nav>
        <main class="main">
          <p class="diff-summary" data-testid="diff-summary">
            {firstStep === undefined
              ? `Same behaviour: ${count(steps.length)} steps.`
              : `${count(differing)} of ${count(steps.length)} steps differ; the first divergence is at seq ${firstSeq ?? '?'} (agent ${(firstStep.actual ?? firstStep.expected)?.agent ?? '?'}).`}
          </p>
          <div class="diff-head">
            <span>seq</span>
            <span>{data.expectedName}</span>
            <span>seq</span>
            <span>{data.actualName}</span>
          </div>
          <VirtualList
            label="Aligned steps"
            className="diff-rows"
            count={steps.length}
            rowHeight={rowHeight}
            {...(selected === undefined ? {} : { revealIndex: selected })}
            renderRow={(index, top) => {
              const each = steps[index];
              return each === undefined ? null : (
                <StepRow
                  key={index}
                  step={each}
                  top={top}
                  first={index === first}
                  selected={index === selected}
                  onSelect={() => setChosen(index)}
                />
              );
            }}
          />
        </main>
        {step === undefined || pair === undefined ? null : (
          <StepDetails step={step} pair={pair} data={data} />
        )}
      </div>
    </div>
  );
}

/** A pair of runs in the list: whether they differ, and their ids. */
function PairItem({
  pair,
  selected,
  onSelect,
}: {
  readonly pair: RunDiffData;
  readonly selected: boolean;
  readonly onSelect: () => void;
}) {
  const differences = pair.steps.filter(s => s.kind !== 'same').length;
  return (
    <button
      type="button"
      class={`run-item static ${selected ? 'selected' : ''}`}
      onClick={onSelect}
    >
      <span class="run-line">
        <span class={`badge ${differences === 0 ? 'stop-ok' : 'stop-warn'}`}>
          {differences === 0 ? 'same' : `${differences} differ`}
        </span>
        <strong>run {pair.index}</strong>
        {pair.turn === undefined ? null : (
          <span class="muted turn-of">
            turn {pair.turn.turn} of {pair.turn.conversation}
          </span>
        )}
      </span>
      <span class="run-line muted">
        {(pair.expectedRun ?? 'none').slice(0, 8)} → {(pair.actualRun ?? 'none').slice(0, 8)}
      </span>
    </button>
  );
}

/** One aligned step: the recording's side and the other's, by seq. */
function StepRow({
  step,
  top,
  first,
  selected,
  onSelect,
}: {
  readonly step: AlignedStep;
  readonly top: number;
  readonly first: boolean;
  readonly selected: boolean;
  readonly onSelect: () => void;
}) {
  return (
    <div
      role="listitem"
      class={`diff-row diff-${step.kind}${first ? ' first-divergence' : ''}${selected ? ' selected' : ''}`}
      style={{ top: `${top}px` }}
      data-kind={step.kind}
      data-expected-seq={step.expected?.seq}
      data-actual-seq={step.actual?.seq}
      onClick={onSelect}
    >
      <span class="seq">{step.expected?.seq ?? ''}</span>
      <span class="step-text">{step.expected?.text ?? ''}</span>
      <span class="seq">{step.actual?.seq ?? ''}</span>
      <span class="step-text">{step.actual?.text ?? ''}</span>
    </div>
  );
}
