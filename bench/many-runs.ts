/**
 * The CLI on a trace of many small runs, as a service that records every request leaves it: about
 * 1.1 GB of the 10-step scenario's runs (42 events each, some 60,000 runs). Each command runs in a
 * process of its own, bundled as a built application is, and reports its peak RSS against the
 * 300 MB each should stay under; `view --out` must refuse such a trace at once and say how to serve it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { figure, runWorker, table } from './measure.js';
import type { CommandSample } from './pipeline/command-worker.js';
import { writeManyRuns } from './pipeline/many-runs.js';
import { sampleEvents } from './pipeline/sample-events.js';
import { bundle } from './compiled.js';
import { pageLimitMb } from '@agent-trace/cli';

/** A command's sample, or why there is none (it failed, or ran past its cap). */
export type CommandOutcome = CommandSample | { readonly command: string; readonly failed: string };

/** What the many-runs benchmark measured. */
export interface ManyRunsResult {
  readonly runs: number;
  readonly events: number;
  readonly bytes: number;
  readonly commands: readonly CommandOutcome[];
}

/** The RSS each command should stay under on such a trace. */
export const manyRunsRssTargetMb = 300;

/** Writes the trace (`megabytes` of it) and runs each command on it. */
export async function measureManyRuns(megabytes: number): Promise<ManyRunsResult> {
  const directory = mkdtempSync(join(tmpdir(), 'agent-trace-bench-many-runs-'));
  try {
    const file = join(directory, 'many-runs.jsonl');
    const written = writeManyRuns(file, await sampleEvents(10), megabytes * 2 ** 20);
    const worker = await bundle('bench/pipeline/command-worker.ts', directory);
    const commands: CommandOutcome[] = [];
    for (const args of [
      ['validate', file],
      ['stats', file],
      ['diff', file, file],
      ['replay', file],
      // Past the page limit: the default one for a full-size trace, half the trace for a small one.
      [
        'view',
        file,
        '--no-open',
        '--out',
        join(directory, 'page.html'),
        '--max-page-mb',
        String(Math.min(pageLimitMb, Math.floor(megabytes / 2))),
      ],
    ])
      commands.push(
        await runWorker<CommandSample>(worker, args, 5 * 60_000).catch((error: unknown) => ({
          command: args[0] as string,
          failed: error instanceof Error ? error.message : String(error),
        })),
      );
    return { runs: written.runs, events: written.events, bytes: written.bytes, commands };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The table: each command's time, peak RSS against the target, and exit code. */
export function formatManyRuns(result: ManyRunsResult): string {
  const gb = (result.bytes / 2 ** 30).toFixed(2);
  return [
    `agent-trace <command> on a ${gb} GB trace of ${result.runs.toLocaleString('en-US')} runs (${result.events.toLocaleString('en-US')} events)`,
    table([
      ['command', 'seconds', 'peak RSS MB', `÷ ${manyRunsRssTargetMb} MB`, 'exit'],
      ...result.commands.map(sample =>
        'failed' in sample
          ? [sample.command, '—', '—', '—', sample.failed]
          : [
              sample.command,
              figure(sample.milliseconds / 1000),
              sample.peakRssMb.toFixed(0),
              (sample.peakRssMb / manyRunsRssTargetMb).toFixed(2),
              String(sample.exitCode),
            ],
      ),
    ]),
  ].join('\n');
}
