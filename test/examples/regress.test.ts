// examples/regress: a recorded week of the support desk as a regression suite. Unchanged code
// reruns as the same with no model call; a changed refunds prompt diverges on the refund
// requests only, each continued and scored; a bad change is named as a regression.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModel } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { ExperimentStore } from '@agent-trace/evals/experiments';
import { regress } from '@agent-trace/evals';
import { runCli } from '@agent-trace/cli';
import { beforeAll, describe, expect, it } from 'vitest';
import { continuationModel } from '../../examples/regress/continuation.js';
import { supportDesk } from '../../examples/regress/desk.js';
import { recordWeek } from '../../examples/regress/record.js';
import { deskScorers } from '../../examples/regress/scorers.js';

let folder: string;
let asked: string[];
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'regress-week-'));
  asked = await recordWeek(folder);
});

const unknownOrder = (input: string) => /order [67]\b/.test(input);

describe('regress over a recorded week of the support desk', () => {
  it('reruns unchanged code as the same, with no model call and no cost', async () => {
    const live = fakeLLM([], { allowUnusedSteps: true });
    const result = await regress({ library: folder, agent: supportDesk('v1'), continueWith: live });
    expect(result.cases).toHaveLength(200);
    expect(result.counts).toEqual({ same: 200, diverged: 0, continued: 0, failed: 0 });
    expect(result.modelCalls).toBe(0);
    expect(live.calls).toHaveLength(0);
    expect(result.costUsd).toBe(0);
  });

  it('diverges on the refund requests only, says where in words, and continues each', async () => {
    const root = mkdtempSync(join(tmpdir(), 'regress-store-'));
    const result = await regress({
      library: folder,
      agent: supportDesk('v2'),
      continueWith: continuationModel(),
      scorers: deskScorers,
      store: { root },
    });
    const refunds = asked.filter(input => /refund/i.test(input));
    const changed = result.cases.filter(found => found.status !== 'same');
    expect(changed.map(found => found.input).sort()).toEqual([...refunds].sort());
    expect(result.counts.continued).toBe(refunds.length);
    expect(changed[0]?.divergence).toContain("agent 'refunds'");
    expect(changed[0]?.divergence).toContain('instructions');
    // Orders 6 and 7 do not exist: the recorded refund failed, today's turns them away.
    const improved = result.cases.filter(found => result.improved.includes(found.run));
    expect(improved.map(found => found.input).sort()).toEqual(refunds.filter(unknownOrder).sort());
    expect(result.regressed).toEqual([]);
    expect(result.modelCalls).toBeGreaterThan(0);
    const store = new ExperimentStore({ root });
    const kept = await store.list();
    expect(kept.map(experiment => [experiment.eval, experiment.runs]).sort()).toEqual([
      ['regress', 200],
      ['regress', 200],
    ]);
    expect(kept.map(experiment => experiment.id).sort()).toEqual(
      [result.experiments?.recorded, result.experiments?.today].sort(),
    );
    // The two experiments compare case by case, and the page opens both traces of a case.
    const { recorded, today } = result.experiments ?? { recorded: '', today: '' };
    const io = {
      stdout: () => undefined,
      stderr: () => undefined,
      env: { NO_COLOR: '1' },
      isTTY: false,
    };
    const junit = join(root, 'regress.xml');
    expect(
      await runCli(['eval', 'compare', recorded, today, '--store', root, '--junit', junit], io),
    ).toBe(0);
    expect(readFileSync(junit, 'utf8')).toContain('<testsuite');
    const page = join(root, 'regress.html');
    const args = [
      'eval',
      'view',
      today,
      '--baseline',
      recorded,
      '--store',
      root,
      '--out',
      page,
      '--no-open',
    ];
    expect(await runCli(args, io)).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain(changed[0]?.run ?? '?');
  });

  it('names the runs a bad change makes worse as regressions', async () => {
    const result = await regress({
      library: folder,
      agent: supportDesk('v3'),
      continueWith: continuationModel(),
      scorers: deskScorers,
      where: "input ILIKE '%refund%'",
    });
    const regressed = result.cases.filter(found => result.regressed.includes(found.run));
    const known = asked.filter(input => /refund/i.test(input) && !unknownOrder(input));
    expect(regressed.map(found => found.input).sort()).toEqual([...known].sort());
    expect(result.cases.every(found => /refund/i.test(found.input))).toBe(true);
  });

  it('splits into shards that add up to the whole selection', async () => {
    const shard = (index: number) =>
      regress({ library: folder, agent: supportDesk('v1'), shard: { index, count: 3 } });
    const parts = await Promise.all([shard(1), shard(2), shard(3)]);
    const runs = parts.flatMap(part => part.cases.map(found => found.run));
    expect(runs).toHaveLength(200);
    expect(new Set(runs).size).toBe(200);
    expect(parts.map(part => part.cases.length)).toEqual([67, 67, 66]);
  });

  it('keeps what finished when stopped, in the store as interrupted', async () => {
    const root = mkdtempSync(join(tmpdir(), 'regress-stop-'));
    const stop = new AbortController();
    const result = await regress({
      library: folder,
      agent: supportDesk('v1'),
      concurrency: 2,
      signal: stop.signal,
      store: { root },
      onCase: () => stop.abort(),
    });
    expect(result.interrupted).toBe(true);
    expect(result.cases.length).toBeGreaterThan(0);
    expect(result.cases.length).toBeLessThan(200);
    const kept = await new ExperimentStore({ root }).list();
    expect(kept.map(experiment => [experiment.status, experiment.runs])).toEqual([
      ['interrupted', result.cases.length],
      ['interrupted', result.cases.length],
    ]);
  });

  it('stops the continuations under way when stopped, and keeps none of them as a case', async () => {
    const stop = new AbortController();
    let asked = 0;
    // A live model that answers only when it is aborted: the regress is stopped at its first call.
    const hanging: LanguageModel = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'hangs',
      generate: request =>
        new Promise((_, reject) => {
          asked++;
          request.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')));
          stop.abort();
        }),
      stream: () => {
        throw new Error('not streamed');
      },
    };
    const result = await regress({
      library: folder,
      agent: supportDesk('v2'),
      continueWith: hanging,
      concurrency: 2,
      signal: stop.signal,
    });
    expect(asked).toBeGreaterThan(0);
    expect(result.interrupted).toBe(true);
    expect([result.counts.continued, result.counts.failed]).toEqual([0, 0]);
    expect(result.cases.length).toBeLessThan(200);
    expect(result.modelCalls).toBe(0);
  });

  it('reports a divergence it cannot explain as a defect, not a case to score', async () => {
    const tampered = mkdtempSync(join(tmpdir(), 'regress-tampered-'));
    const lines = readFileSync(join(folder, 'desk-01.jsonl'), 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0] ?? '{}') as { run: string };
    let changed = false;
    const edited = lines
      .map(line => JSON.parse(line) as Record<string, unknown>)
      .filter(event => event.run === first.run)
      .map(event => {
        // The request's hash, as if rerun had hashed the same request differently.
        if (event.event !== 'llm_start' || changed) return event;
        changed = true;
        return { ...event, request_hash: 'f'.repeat(14) };
      });
    writeFileSync(
      join(tampered, 'one.jsonl'),
      edited.map(event => `${JSON.stringify(event)}\n`).join(''),
    );
    const live = fakeLLM([], { allowUnusedSteps: true });
    const result = await regress({
      library: tampered,
      agent: supportDesk('v1'),
      continueWith: live,
    });
    expect(result.counts).toEqual({ same: 0, diverged: 0, continued: 0, failed: 1 });
    expect(result.cases[0]?.divergence).toContain('a divergence regress cannot explain');
    expect(live.calls).toHaveLength(0);
  });

  it('regress on the command line: names the regressions and fails the gate', async () => {
    const lines: string[] = [];
    const cliStore = mkdtempSync(join(tmpdir(), 'regress-cli-'));
    const code = await runCli(
      [
        'regress',
        folder,
        '--agent',
        'examples/regress/bad-change.ts',
        '--eval',
        'examples/regress/desk.eval.ts',
        '--where',
        "input ILIKE '%refund%'",
        '--fail-on-regression',
        '--store',
        cliStore,
        '--junit',
        join(cliStore, 'regress.xml'),
        '--markdown',
        join(cliStore, 'regress.md'),
      ],
      {
        stdout: text => void lines.push(text),
        stderr: text => void lines.push(text),
        env: { NO_COLOR: '1' },
        isTTY: false,
      },
    );
    const printed = lines.join('\n');
    expect(code).toBe(1);
    expect(readFileSync(join(cliStore, 'regress.xml'), 'utf8')).toContain('<failure');
    expect(readFileSync(join(cliStore, 'regress.md'), 'utf8')).toContain('regressed');
    const known = asked.filter(input => /refund/i.test(input) && !unknownOrder(input));
    expect(printed).toContain(`${known.length} regressed`);
    expect(printed).toContain("agent 'refunds'");
    expect(printed).toMatch(/regressed: [\w-]+(, [\w-]+)*/);

    lines.length = 0;
    const same = await runCli(
      [
        'regress',
        folder,
        '--agent',
        'examples/regress/today.ts',
        '--where',
        "input NOT ILIKE '%refund%'",
        '--fail-on-regression',
        '--no-store',
      ],
      {
        stdout: text => void lines.push(text),
        stderr: text => void lines.push(text),
        env: { NO_COLOR: '1' },
        isTTY: false,
      },
    );
    expect(same).toBe(0);
    expect(lines.join('\n')).toContain(
      `${asked.length - asked.filter(input => /refund/i.test(input)).length} same, 0 diverged, 0 continued, 0 failed`,
    );
    expect(lines.join('\n')).toContain('0 model calls');
  });
});
