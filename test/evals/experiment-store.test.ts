import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run } from '@agent-trace/core';
import {
  defineEval,
  exactMatch,
  runEval,
  trajectoryMatch,
  type EvalResult,
} from '@agent-trace/evals';
import { ExperimentStore, runExperiment } from '@agent-trace/evals/experiments';
import { fakeLLM } from '@agent-trace/testing';
import { readTrace, validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { refundsSix } from '../fixtures/evals/refunds-six.js';
import { refundCase, refundDesk } from '../fixtures/refund-desk.js';

async function readAll(file: string) {
  const events = [];
  for await (const event of readTrace(file)) events.push(event);
  return events;
}

const writer = 'test/fixtures/evals/experiment-writer.ts';
const fresh = () => mkdtempSync(join(tmpdir(), 'agent-trace-store-'));
const main = { commit: 'c0ffee', branch: 'main', dirty: false };

/** Runs the writer in a process of its own; resolves with its exit (signal or code). */
function write(...args: string[]): Promise<string | number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise(resolve => child.on('exit', (code, signal) => resolve(signal ?? code)));
}

/** What a run kept that does not depend on time: each case's id, trial, output and scores. */
const shape = (result: EvalResult) =>
  result.cases.map(({ id, index, trial, output, scores, error }) => ({
    id,
    index,
    trial,
    output,
    scores,
    error,
  }));

describe('the experiment store', () => {
  it('keeps an experiment: what identifies it, every case with its scores, and its trace files', async () => {
    const root = fresh();
    const { result, experiment } = await runExperiment(refundsSix(), { root, git: main });
    expect(experiment).toMatchObject({
      eval: 'refunds',
      status: 'completed',
      git: main,
      scorers: ['trajectory', 'exact'],
      datasetCases: 6,
      runs: 6,
      failed: 0,
      models: ['fake-model'],
    });
    expect(experiment.means.trajectory).toBeCloseTo(5 / 6);
    expect(experiment.datasetHash).toMatch(/^[0-9a-f]{64}$/);
    const stored = await new ExperimentStore({ root }).result(experiment.id);
    expect(shape(stored)).toEqual(shape(result));
    // runExperiment does not open the index: its summary is what the store lists once it reads.
    const { means, ...listed } = stored.experiment;
    expect(experiment).toMatchObject(listed);
    for (const [scorer, mean] of Object.entries(means))
      expect(experiment.means[scorer]).toBeCloseTo(mean, 12);
    for (const each of stored.cases)
      expect((await validateTraceFile(each.traceFile as string)).valid).toBe(true);
  });

  it('hashes the dataset and the agent: the same data shares a hash, another prompt does not', async () => {
    const root = fresh();
    const desk = (instructions: string) =>
      defineEval({
        name: 'desk',
        data: [refundCase(1)],
        task: agent({ name: 'desk', instructions, model: fakeLLM([{ text: 'ok' }]) }),
        scorers: [exactMatch()],
      });
    const one = await runExperiment(desk('Be brief.'), { root, git: main });
    const two = await runExperiment(desk('Be thorough.'), { root, git: main });
    expect(two.experiment.datasetHash).toBe(one.experiment.datasetHash);
    expect(two.experiment.configHash).not.toBe(one.experiment.configHash);
  });

  it('is an index of the files: deleted, it is built again with nothing lost', async () => {
    const root = fresh();
    const { experiment } = await runExperiment(refundsSix(), { root, git: main });
    const before = await new ExperimentStore({ root }).result(experiment.id);
    rmSync(join(root, 'experiments.duckdb'));
    const after = await new ExperimentStore({ root }).result(experiment.id);
    expect(after).toEqual(before);
  });

  it('takes two processes writing at once: shards 1/2 and 2/2 of one experiment add up to the unsharded run', async () => {
    const root = fresh();
    const exits = await Promise.all([
      write(root, 'merged', '1/2'),
      write(root, 'merged', '2/2'),
      write(root, 'whole', 'all'),
    ]);
    expect(exits).toEqual([0, 0, 0]);
    const store = new ExperimentStore({ root });
    const merged = await store.result('merged');
    const whole = await store.result('whole');
    expect(merged.experiment.shards).toEqual(['1/2', '2/2']);
    expect(merged.experiment.status).toBe('completed');
    expect(shape(merged)).toEqual(shape(whole));
    expect(merged.means).toEqual(whole.means);
    expect(shape(whole)).toEqual(shape(await runEval(refundsSix())));
  });

  it('keeps every case a crashed process finished, and says the experiment is unfinished', async () => {
    const root = fresh();
    expect(await write(root, 'crashed', 'all', 'crash-at', 'order-4')).toBe('SIGKILL');
    const kept = await new ExperimentStore({ root }).result('crashed');
    expect(kept.experiment.status).toBe('unfinished');
    expect(kept.cases.map(each => each.id)).toEqual(['order-1', 'order-2', 'order-3']);
    // The killed case's trace file was opened, and holds no more than it wrote.
    const traces = readdirSync(join(root, 'experiments', 'crashed', 'traces', 'refunds'));
    expect(traces.sort()).toEqual([1, 2, 3, 4].map(id => `order-${id}.t1.jsonl`));
  });

  it('stops on a signal: no case starts after it, running ones end aborted with sealed traces', async () => {
    const root = fresh();
    const controller = new AbortController();
    const slow = defineEval<{ order: number }>({
      name: 'slow',
      data: [1, 2, 3, 4].map(refundCase),
      task: ({ order: id }, { runOptions }) => {
        if (id !== 2) return run(refundDesk(id), `Refund order ${id}`, runOptions);
        // Case 2 is running when the signal comes: its first model call stops the eval.
        const model = fakeLLM(
          [
            () => {
              controller.abort();
              return { toolCalls: [{ name: 'lookup', args: { order: id } }] };
            },
            { text: 'never' },
          ],
          { allowUnusedSteps: true },
        );
        return run(agent({ name: 'desk', model }), `Refund order ${id}`, runOptions);
      },
      scorers: [trajectoryMatch()],
    });
    const { result, experiment } = await runExperiment(slow, {
      root,
      git: main,
      concurrency: 1,
      signal: controller.signal,
    });
    expect(result.interrupted).toBe(true);
    expect(result.cases.map(each => each.id)).toEqual(['order-1']);
    expect(experiment.status).toBe('interrupted');
    const aborted = join(experiment.folder, 'traces', 'slow', 'order-2.t1.jsonl');
    expect(existsSync(aborted)).toBe(true);
    expect((await validateTraceFile(aborted)).valid).toBe(true);
    const events = await readAll(aborted);
    expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'aborted' });
    expect(readdirSync(join(experiment.folder, 'traces', 'slow')).sort()).toEqual([
      'order-1.t1.jsonl',
      'order-2.t1.jsonl',
    ]);
  });
});

describe('the store when another process holds its database', () => {
  it('waits for the lock (a write goes through once it is free) and says so when it waits too long', async () => {
    const root = fresh();
    await new ExperimentStore({ root }).sync(); // the database file exists
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { DuckDBInstance } from '@duckdb/node-api';
         const db = await DuckDBInstance.create(${JSON.stringify(join(root, 'experiments.duckdb'))});
         console.log('held');
         process.stdin.on('end', () => { db.closeSync(); process.exit(0); });
         process.stdin.resume();`,
      ],
      { cwd: 'packages/evals', stdio: ['pipe', 'pipe', 'inherit'] },
    );
    await new Promise<void>(resolve =>
      holder.stdout.on('data', (data: Buffer) => data.toString().includes('held') && resolve()),
    );
    await expect(new ExperimentStore({ root, lockTimeoutMs: 100 }).list()).rejects.toThrow(
      /stayed locked by another process/,
    );
    const written = write(root, 'waited', 'all');
    // The writer keeps its cases on disk while it waits for the index.
    const journal = () => {
      const folder = join(root, 'experiments', 'waited');
      const file = existsSync(folder)
        ? readdirSync(folder).find(name => name.startsWith('cases.'))
        : undefined;
      return file === undefined ? '' : readFileSync(join(folder, file), 'utf8');
    };
    await until(() => journal().includes('"type":"end"'));
    holder.stdin.end();
    expect(await written).toBe(0);
    expect((await new ExperimentStore({ root }).get('waited')).runs).toBe(6);
  });
});

/** Waits until `done()` holds, looking every 20 ms (for a file another process writes). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise(resolve => setTimeout(resolve, 20));
}
