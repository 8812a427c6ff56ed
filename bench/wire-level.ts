/**
 * The wire-level comparison: every framework on its own OpenAI provider (agent-trace's adapter,
 * `@ai-sdk/openai`, the Agents SDK's default model, LangChain's `ChatOpenAI`, and Mastra on
 * `@ai-sdk/openai` under Node 22) against one Chat Completions server on 127.0.0.1, streaming and
 * not, each cell in its own process and capped. agent-trace runs under Node 22 too, so Mastra's
 * ratio is taken on the same runtime.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { compiledWorker } from './compiled.js';
import { cellNotes, perStepText, workerCell } from './loop-vs-peers.js';
import { ratio, table } from './measure.js';
import type { LoopSample } from './peers/measure-cell.js';
import { node22, node22Folder, node22Packages } from './wire/node22.js';
import type { WireSubjectKey } from './wire/subjects.js';
import type { WireMode } from './wire/wire-mode.js';

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
  'vercel-ai',
  'openai-agents',
  'langgraph',
];

/** Each cell's row name, also for a cell capped before it printed anything. */
const names: Record<WireSubjectKey | 'mastra', string> = {
  'agent-trace': 'agent-trace (openai adapter)',
  'vercel-ai': 'Vercel AI SDK (@ai-sdk/openai)',
  'openai-agents': 'OpenAI Agents SDK (default model, Chat Completions)',
  langgraph: 'LangGraph.js (ChatOpenAI)',
  mastra: 'Mastra (@ai-sdk/openai)',
};

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

/** Measures every framework at every N in both modes. */
export async function measureWireLevel(
  sizes: readonly number[],
  budgetMs: number,
  onProgress: (sample: WireSample) => void = () => undefined,
): Promise<WireResult> {
  const { url, server } = await startChatServer();
  const samples: WireSample[] = [];
  const record = (sample: LoopSample, mode: WireMode, runtime: WireSample['runtime']) => {
    const wire = { ...sample, mode, runtime };
    samples.push(wire);
    onProgress(wire);
  };
  const runtime22 = node22();
  try {
    for (const mode of ['json', 'stream'] as const) {
      for (const subject of node20Subjects)
        for (const steps of sizes) {
          const args = [subject, String(steps), String(budgetMs), url, mode];
          record(
            await workerCell(
              'bench/wire/wire-worker.ts',
              `${subject}-${mode}`,
              args,
              steps,
              undefined,
              names[subject],
            ),
            mode,
            'Node 20',
          );
        }
      if ('failed' in runtime22) continue;
      for (const steps of sizes) {
        const ours = [`agent-trace`, String(steps), String(budgetMs), url, mode];
        const worker = 'bench/wire/wire-worker.ts';
        record(
          await workerCell(
            worker,
            `agent-trace-${mode}`,
            ours,
            steps,
            runtime22.node,
            names['agent-trace'],
          ),
          mode,
          'Node 22',
        );
        const mastra = await compiledWorker(
          'bench/wire/mastra-worker.ts',
          node22Folder,
          node22Packages,
        );
        const args = [String(steps), String(budgetMs), url, mode];
        record(
          await workerCell(mastra, `mastra-${mode}`, args, steps, runtime22.node, names.mastra),
          mode,
          'Node 22',
        );
      }
    }
  } finally {
    server.kill();
  }
  return { samples, ...('failed' in runtime22 ? { node22: runtime22.failed } : {}) };
}

const rowName = (sample: WireSample): string => `${sample.name}, ${sample.runtime}`;

/** One table per mode: µs per step at each N, peak RSS, and each row over agent-trace's on the same runtime. */
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
    ])}`;
  });
  const nameOf = (subject: string) =>
    result.samples.find(sample => sample.subject === subject)?.name ?? subject;
  const note =
    result.node22 === undefined
      ? ''
      : `\n\nMastra and the Node 22 cells did not run: ${result.node22}`;
  return `${tables.join('\n\n')}${cellNotes(result.samples, nameOf)}${note}`;
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
      !sample.subject.startsWith('agent-trace') && Number.isFinite(sample.microsecondsPerStep),
  );
  const fastest = peers.sort(
    (left, right) => left.microsecondsPerStep - right.microsecondsPerStep,
  )[0];
  if (ours === undefined || fastest === undefined) return { peer: '—', times: Number.NaN };
  return { peer: fastest.name, times: fastest.microsecondsPerStep / ours.microsecondsPerStep };
}
