/**
 * Loop overhead against the peers, side by side in one run: every framework runs the same
 * scenario (a scripted model asks for a trivial `add` tool N−1 times, then answers) on its own
 * test model, each subject and N in a fresh process. Reports the median µs per step, peak RSS,
 * and how many times more per step each peer spends than agent-trace.
 */
import { cellNotes, notRunCell, perStepText, workerCell } from './cells.js';
import { ratio, table } from './measure.js';
import type { LoopSample } from './peers/measure-cell.js';
import type { SubjectKey } from './peers/registry.js';

const subjectOrder: readonly SubjectKey[] = [
  'agent-trace',
  'agent-trace-react',
  'agent-trace-jsonl',
  'agent-trace-otlp',
  'agent-trace-app-sdk',
  'vercel-ai',
  'vercel-ai-otel',
  'vercel-ai-otlp',
  'langgraph',
  'langgraph-langsmith',
  'openai-agents-off',
  'openai-agents-noop',
];

/**
 * Cells left out, from an N on, and why: a cell known to run past its cap only spends the cap.
 */
const notRunFrom: Partial<
  Record<SubjectKey, { readonly steps: number; readonly name: string; readonly why: string }>
> = {
  'langgraph-langsmith': {
    steps: 1000,
    name: 'LangGraph.js + LangSmith tracing',
    why: "LangSmith's tracer serializes the whole conversation at every step, so one run takes longer than the 60 s cap (no run finished within it when the cell ran) and its queue fills and drops runs",
  },
};

const loopCell = (subject: SubjectKey, steps: number, budgetMs: number): Promise<LoopSample> => {
  const left = notRunFrom[subject];
  if (left !== undefined && steps >= left.steps)
    return Promise.resolve(notRunCell({ subject, steps, name: left.name }, left.why));
  return workerCell({
    worker: 'bench/peers/loop-worker.ts',
    subject,
    args: [subject, String(steps), String(budgetMs)],
    steps,
  });
};

/**
 * Measures every subject at every N (each in its own process, `budgetMs` of samples each, capped
 * as `cells.ts` caps a cell).
 */
export async function measureLoopVsPeers(
  sizes: readonly number[],
  budgetMs: number,
  onProgress: (sample: LoopSample) => void = () => undefined,
): Promise<LoopSample[]> {
  const samples: LoopSample[] = [];
  for (const subject of subjectOrder) {
    for (const steps of sizes) {
      const sample = await loopCell(subject, steps, budgetMs);
      samples.push(sample);
      onProgress(sample);
    }
  }
  return samples;
}

/** `a / b` as a ratio, or `capped` when either is missing. */
const ratioText = (a: number, b: number): string =>
  Number.isNaN(a) || Number.isNaN(b) ? 'capped' : ratio(a / b);

const find = (samples: readonly LoopSample[], subject: string, steps: number) =>
  samples.find(sample => sample.subject === subject && sample.steps === steps);

/** The µs-per-step table, then the peer / agent-trace ratios at `pivot` steps. */
export function formatLoopVsPeers(samples: readonly LoopSample[], pivot = 100): string {
  const sizes = [...new Set(samples.map(sample => sample.steps))];
  const subjects = [...new Set(samples.map(sample => sample.subject))];
  const nameOf = (subject: string) => samples.find(sample => sample.subject === subject)!.name;
  const first = sizes[0]!;
  const last = sizes.at(-1)!;
  // How the step grows, when more than one N ran (`--quick` runs N = 100 alone).
  const growth = sizes.length > 1 ? [`N=${last} / N=${first}`] : [];
  const perStep = table([
    ['µs per step', ...sizes.map(size => `N = ${size}`), ...growth, 'peak RSS'],
    ...subjects.map(subject => {
      const values = sizes.map(size => find(samples, subject, size)?.microsecondsPerStep ?? NaN);
      const rss = Math.max(
        ...samples
          .filter(s => s.subject === subject && !Number.isNaN(s.peakRssMb))
          .map(s => s.peakRssMb),
      );
      return [
        nameOf(subject),
        ...sizes.map(size => perStepText(find(samples, subject, size))),
        ...(growth.length > 0 ? [ratioText(values.at(-1)!, values[0]!)] : []),
        Number.isFinite(rss) ? `${rss.toFixed(0)} MB` : '—',
      ];
    }),
  ]);
  const ours = subjects.filter(subject => subject.startsWith('agent-trace'));
  const peers = subjects.filter(subject => !subject.startsWith('agent-trace'));
  const ratios = table([
    [`peer µs / ours at N = ${pivot}`, ...peers.map(nameOf)],
    ...ours.map(subject => [
      nameOf(subject),
      ...peers.map(peer =>
        find(samples, peer, pivot)?.dropped !== undefined
          ? 'dropped work'
          : ratioText(
              find(samples, peer, pivot)?.microsecondsPerStep ?? Number.NaN,
              find(samples, subject, pivot)?.microsecondsPerStep ?? Number.NaN,
            ),
      ),
    ]),
  ]);
  const native = find(samples, 'agent-trace', pivot);
  const react = find(samples, 'agent-trace-react', pivot);
  const reactLine =
    native === undefined || react === undefined
      ? ''
      : `\n\nReAct mode / native tool calls at N = ${pivot}, no sink: ${ratio(react.microsecondsPerStep / native.microsecondsPerStep)} per step (the answer parsed, the chunks split, the observation a text message)`;
  return `${perStep}\n\n${ratios}${reactLine}${cellNotes(samples, nameOf)}`;
}

type Framework = 'agent-trace' | 'Vercel AI SDK' | 'LangGraph.js' | 'OpenAI Agents SDK';
type Mode = 'no telemetry' | 'a trace file' | 'sent to a collector' | "the app's OpenTelemetry SDK";

/** Each subject as a framework in one telemetry mode. */
const modeOf: Partial<Record<SubjectKey, { framework: Framework; mode: Mode; note?: string }>> = {
  'agent-trace': { framework: 'agent-trace', mode: 'no telemetry' },
  'agent-trace-jsonl': { framework: 'agent-trace', mode: 'a trace file', note: 'JSONL' },
  'agent-trace-otlp': { framework: 'agent-trace', mode: 'sent to a collector', note: 'otlpSink' },
  'agent-trace-app-sdk': {
    framework: 'agent-trace',
    mode: "the app's OpenTelemetry SDK",
    note: 'otelSink',
  },
  'vercel-ai': { framework: 'Vercel AI SDK', mode: 'no telemetry' },
  'vercel-ai-otlp': {
    framework: 'Vercel AI SDK',
    mode: 'sent to a collector',
    note: 'OTel SDK + OTLP',
  },
  'vercel-ai-otel': { framework: 'Vercel AI SDK', mode: "the app's OpenTelemetry SDK" },
  langgraph: { framework: 'LangGraph.js', mode: 'no telemetry' },
  'langgraph-langsmith': {
    framework: 'LangGraph.js',
    mode: 'sent to a collector',
    note: 'LangSmith',
  },
  'openai-agents-off': { framework: 'OpenAI Agents SDK', mode: 'no telemetry' },
  'openai-agents-noop': {
    framework: 'OpenAI Agents SDK',
    mode: 'sent to a collector',
    note: 'own tracing, no-op exporter',
  },
};

const frameworks: readonly Framework[] = [
  'agent-trace',
  'Vercel AI SDK',
  'LangGraph.js',
  'OpenAI Agents SDK',
];
const modes: readonly Mode[] = [
  'no telemetry',
  'a trace file',
  'sent to a collector',
  "the app's OpenTelemetry SDK",
];

/**
 * Every framework in every telemetry mode at `pivot` steps: µs per step, and for a peer how many
 * times ours in the same mode. A dash is a mode the framework does not have.
 */
export function formatModes(samples: readonly LoopSample[], pivot = 100): string {
  const cell = (framework: Framework, mode: Mode): LoopSample | undefined => {
    const entry = Object.entries(modeOf).find(
      ([, where]) => where.framework === framework && where.mode === mode,
    );
    return entry === undefined ? undefined : find(samples, entry[0], pivot);
  };
  const rows = modes.map(mode => {
    const ours = cell('agent-trace', mode);
    return [
      mode,
      ...frameworks.map(framework => {
        const sample = cell(framework, mode);
        if (sample === undefined) return '—';
        const note = Object.values(modeOf).find(
          where => where.framework === framework && where.mode === mode,
        )?.note;
        const times =
          framework === 'agent-trace' || ours === undefined
            ? ''
            : ` (${ratioText(sample.microsecondsPerStep, ours.microsecondsPerStep)})`;
        return `${perStepText(sample)}${times}${note === undefined ? '' : ` [${note}]`}`;
      }),
    ];
  });
  return `${table([[`µs per step at N = ${pivot}`, ...frameworks], ...rows])}

(×) = the peer's µs per step / agent-trace's in the same mode. — = a mode the framework does not
have: the Vercel AI SDK and the OpenAI Agents SDK write no trace file; LangGraph.js makes no
OpenTelemetry spans (LangSmith's bridge only annotates spans of \`traceable\` functions); the
OpenAI Agents SDK has no OpenTelemetry integration of its own. Mastra (whose releases since 1.0
need Node ≥ 22.13) is measured on the wire, under Node 22, beside agent-trace on the same runtime.`;
}

/** The fastest peer at `steps`, and agent-trace + JSONL's share of its per-step time. */
export function jsonlShareOfFastestPeer(
  samples: readonly LoopSample[],
  steps = 100,
): { peer: string; share: number } {
  const peers = samples.filter(
    sample =>
      sample.kind === 'peer' && sample.steps === steps && !Number.isNaN(sample.microsecondsPerStep),
  );
  const fastest = peers.reduce((best, sample) =>
    sample.microsecondsPerStep < best.microsecondsPerStep ? sample : best,
  );
  const jsonl = find(samples, 'agent-trace-jsonl', steps)!;
  return { peer: fastest.name, share: jsonl.microsecondsPerStep / fastest.microsecondsPerStep };
}
