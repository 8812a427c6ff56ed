/**
 * The wire-level comparison: every framework on its own OpenAI provider (agent-trace's adapter,
 * `@ai-sdk/openai`, the Agents SDK's default model, LangChain's `ChatOpenAI`, and Mastra on
 * `@ai-sdk/openai` under Node 22) against one Chat Completions server on 127.0.0.1, streaming and
 * not, each cell in its own process and capped. agent-trace runs under Node 22 too, so Mastra's
 * ratio is taken on the same runtime.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { compiledWorker } from './compiled.js';
import { cellNotes, formatMemory, notRunCell, perStepText, workerCell } from './cells.js';
import { ratio, table } from './measure.js';
import type { LoopSample } from './peers/measure-cell.js';
import { node22, node22Folder, node22Packages } from './wire/node22.js';
import type { WireSubjectKey } from './wire/subjects.js';
import type { WireMode } from './wire/wire-mode.js';
import { wireNames } from './wire/wire-names.js';

/** One wire cell: which runtime it ran on, with its sample. */
export interface WireSample extends LoopSample {
  mode: WireMode;
  runtime: 'Node 20' | 'Node 22';
}

/** What the section measured, or why the Node 22 cells could not run. */
export interface WireResult {
  samples: WireSample[];
  node22?: string;
}

const node20Subjects: readonly WireSubjectKey[] = [
  'agent-trace',
  'openai-client',
  'floor',
  'vercel-ai',
  'openai-agents',
  'langgraph',
];

/** Starts the chat server in a process of its own; resolves with its URL. */
async function startChatServer(): Promise<{ url: string; server: ChildProcess }> {
  const server = spawn(process.execPath, [await compiledWorker('bench/wire/chat-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    server.once('exit', code => reject(new Error(`The chat server exited (${code}).`)));
    server.stdout.once('data', (data: Buffer) =>
      resolve((JSON.parse(data.toString().split('\n')[0]!) as { url: string }).url),
    );
  });
  return { url, server };
}

/** A wire cell's runtime and what runs it, but for the run's arguments. */
interface WireCell {
  readonly key: WireSubjectKey | 'mastra';
  readonly runtime: WireSample['runtime'];
  readonly worker: string;
  readonly node?: string;
}

/** The cells of one N and mode: every peer under Node 20, then agent-trace and Mastra under 22. */
async function wireCells(runtime22: ReturnType<typeof node22>): Promise<WireCell[]> {
  const worker = 'bench/wire/wire-worker.ts';
  const cells: WireCell[] = node20Subjects.map(key => ({ key, runtime: 'Node 20', worker }));
  if ('failed' in runtime22) return cells;
  const mastra = await compiledWorker('bench/wire/mastra-worker.ts', node22Folder, node22Packages);
  return [
    ...cells,
    { key: 'agent-trace', runtime: 'Node 22', worker, node: runtime22.node },
    { key: 'mastra', runtime: 'Node 22', worker: mastra, node: runtime22.node },
  ];
}

/** The rows measured at every N; the others only up to N = 100 (see {@link notRunWhy}). */
const everyN: readonly string[] = ['agent-trace', 'openai-client', 'floor', 'vercel-ai'];

/**
 * Why a cell is left out, or undefined when it runs: past N = 100 only agent-trace, its floor,
 * the official client and the fastest peer run; the other peers' growth with N is in the loop
 * table, and one of their runs at N = 1,000 takes 17–60 s (Mastra's holds more than the cap).
 */
function notRunWhy(key: WireCell['key'], steps: number, quick: boolean): string | undefined {
  if (everyN.includes(key)) return undefined;
  if (quick)
    return 'left out of `--quick`, which runs only agent-trace, its floor, the official client and the Vercel AI SDK on the wire';
  if (steps <= 100) return undefined;
  if (key === 'mastra')
    return "a 1,000-step Mastra run keeps every step's request with the whole history and holds more than the 1.5 GB cap before it ends (docs/guide/performance.md has it measured alone)";
  return "at N = 1,000 only agent-trace, its floor, the official client and the Vercel AI SDK run on the wire; how the other peers' step grows with N is in the loop table";
}

/** One wire cell at `steps` in `mode`: measured, or left out with why. */
async function wireCell(
  cell: WireCell,
  steps: number,
  mode: WireMode,
  url: string,
  options: WireOptions,
) {
  const spec = {
    worker: cell.worker,
    subject: `${cell.key}-${mode}`,
    name: wireNames[cell.key],
    args: [cell.key, String(steps), String(options.budgetMs), url, mode],
    steps,
    ...(cell.node === undefined ? {} : { node: cell.node }),
  };
  const why = notRunWhy(cell.key, steps, options.quick === true);
  return why === undefined ? workerCell(spec) : notRunCell(spec, why);
}

/** How the wire section runs. */
export interface WireOptions {
  /** Each cell's time budget. */
  readonly budgetMs: number;
  /** Only the rows measured at every N (see {@link notRunWhy}). */
  readonly quick?: boolean;
}

/** Measures every framework at every N in both modes. */
export async function measureWireLevel(
  sizes: readonly number[],
  options: WireOptions,
  onProgress: (sample: WireSample) => void = () => undefined,
): Promise<WireResult> {
  const { budgetMs } = options;
  const { url, server } = await startChatServer();
  const samples: WireSample[] = [];
  const runtime22 = options.quick === true ? { failed: 'left out of `--quick`' } : node22();
  try {
    const cells = await wireCells(runtime22);
    // A cell on the server first, not timed: the first cell timed would otherwise pay for the
    // server's own warm-up (its code not yet compiled), and it is agent-trace's.
    const first = cells[0]!;
    await workerCell({
      worker: first.worker,
      subject: `${first.key}-warm-up`,
      name: wireNames[first.key],
      args: [first.key, '100', String(budgetMs), url, 'json'],
      steps: 100,
    });
    for (const mode of ['json', 'stream'] as const)
      for (const cell of cells)
        for (const steps of sizes) {
          const sample = await wireCell(cell, steps, mode, url, options);
          const wire = { ...sample, mode, runtime: cell.runtime };
          samples.push(wire);
          onProgress(wire);
        }
  } finally {
    server.kill();
  }
  return { samples, ...('failed' in runtime22 ? { node22: runtime22.failed } : {}) };
}

const rowName = (sample: WireSample): string => `${sample.name}, ${sample.runtime}`;

/** The rows that are no framework: the floor and the official client alone, on the same bytes. */
const references: readonly string[] = ['floor', 'openai-client'];
const isReference = (sample: WireSample): boolean =>
  references.some(key => sample.subject === `${key}-${sample.mode}`);

/**
 * Per N, agent-trace's step and the official client's over the floor's (Node 20, one mode): how
 * much above HTTP, the server and parsing each is.
 */
export function floorRatios(
  result: WireResult,
  mode: WireMode,
): { steps: number; agentTrace: number; client: number }[] {
  const at = (key: string, steps: number) =>
    result.samples.find(
      sample =>
        sample.subject === `${key}-${mode}` &&
        sample.runtime === 'Node 20' &&
        sample.steps === steps,
    )?.microsecondsPerStep ?? Number.NaN;
  const sizes = [...new Set(result.samples.map(sample => sample.steps))];
  return sizes.map(steps => ({
    steps,
    agentTrace: at('agent-trace', steps) / at('floor', steps),
    client: at('openai-client', steps) / at('floor', steps),
  }));
}

/** The line under a mode's table: agent-trace and the client over the floor at each N. */
function floorLine(result: WireResult, mode: WireMode): string {
  const ratios = floorRatios(result, mode);
  const list = (pick: (entry: (typeof ratios)[number]) => number) =>
    ratios.map(entry => `${ratio(pick(entry))} at N = ${entry.steps}`).join(', ');
  return `\nOver the floor (Node 20): agent-trace ${list(entry => entry.agentTrace)}; the openai client alone ${list(entry => entry.client)}.`;
}

/**
 * One table per mode: µs per step at each N, peak RSS, and each row over agent-trace's on the
 * same runtime.
 */
export function formatWireLevel(result: WireResult, pivot = 100): string {
  const sizes = [...new Set(result.samples.map(sample => sample.steps))];
  const tables = (['json', 'stream'] as const).map(mode => {
    const samples = result.samples.filter(sample => sample.mode === mode);
    const rows = [...new Set(samples.map(rowName))];
    const cell = (row: string, steps: number) =>
      samples.find(sample => rowName(sample) === row && sample.steps === steps);
    const body = rows.map(row => {
      const cells = samples.filter(sample => rowName(sample) === row);
      const runtime = cells[0]!.runtime;
      const ours = samples.find(
        sample =>
          sample.subject.startsWith('agent-trace') &&
          sample.runtime === runtime &&
          sample.steps === pivot,
      );
      const mine = cell(row, pivot);
      const rss = Math.max(...cells.map(sample => sample.peakRssMb).filter(Number.isFinite));
      return [
        row,
        ...sizes.map(steps => perStepText(cell(row, steps))),
        Number.isFinite(rss) ? `${rss.toFixed(0)} MB` : '—',
        ours === undefined || mine === undefined || Number.isNaN(mine.microsecondsPerStep)
          ? '—'
          : ratio(mine.microsecondsPerStep / ours.microsecondsPerStep),
      ];
    });
    const heading = mode === 'json' ? 'one JSON answer a call' : 'streamed (SSE chunks)';
    return `${heading}\n${table([
      [
        'µs per step',
        ...sizes.map(size => `N = ${size}`),
        'peak RSS',
        `÷ agent-trace at N = ${pivot}`,
      ],
      ...body,
    ])}${floorLine(result, mode)}`;
  });
  const nameOf = (subject: string) =>
    result.samples.find(sample => sample.subject === subject)?.name ?? subject;
  const note =
    result.node22 === undefined
      ? ''
      : `\n\nMastra and the Node 22 cells did not run: ${result.node22}`;
  return `${tables.join('\n\n')}${cellNotes(result.samples, nameOf)}${note}`;
}

/**
 * Memory and garbage collection of every wire cell at `steps`, a row per framework, runtime and
 * mode.
 */
export function formatWireMemory(result: WireResult, steps: number): string {
  return formatMemory(result.samples, steps, sample => `${rowName(sample)}, ${sample.mode}`);
}

/** agent-trace's µs per step over the fastest peer's, per mode, at `pivot` (same runtime). */
export function wireShare(
  result: WireResult,
  mode: WireMode,
  pivot = 100,
): { peer: string; times: number } {
  const at = result.samples.filter(
    sample => sample.mode === mode && sample.steps === pivot && sample.runtime === 'Node 20',
  );
  const ours = at.find(sample => sample.subject.startsWith('agent-trace'));
  const peers = at.filter(
    sample =>
      !sample.subject.startsWith('agent-trace') &&
      !isReference(sample) &&
      Number.isFinite(sample.microsecondsPerStep),
  );
  const fastest = peers.sort(
    (left, right) => left.microsecondsPerStep - right.microsecondsPerStep,
  )[0];
  if (ours === undefined || fastest === undefined) return { peer: '—', times: Number.NaN };
  return { peer: fastest.name, times: fastest.microsecondsPerStep / ours.microsecondsPerStep };
}
