import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalResult } from '@agent-trace/evals';
import { ExperimentStore, type ExperimentSummary } from '@agent-trace/evals/experiments';
import { validateTraceFile } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { runCli } from '@agent-trace/cli';
import { cli } from '../support/cli.js';

const careful = 'test/fixtures/evals/refunds.eval.ts';
const careless = 'test/fixtures/evals/refunds-careless.eval.ts';
const flaky = 'test/fixtures/evals/refunds-flaky.eval.ts';
const hanging = 'test/fixtures/evals/refunds-hanging.eval.ts';
const fresh = () => mkdtempSync(join(tmpdir(), 'agent-trace-eval-cli-'));

/** Runs `agent-trace eval` on a branch into a store; gives what it printed. */
const evaluate = (store: string, file: string, branch: string, ...more: string[]) =>
  cli(['eval', file, '--store', store, ...more], { AGENT_TRACE_BRANCH: branch });

const list = async (store: string) =>
  JSON.parse(
    (await cli(['eval', 'list', '--store', store, '--json'])).stdout,
  ) as ExperimentSummary[];

/** Runs the CLI in a process of its own. */
function cliProcess(args: string[]) {
  return spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/cli/src/bin/agent-trace.ts', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, AGENT_TRACE_BRANCH: 'main' } },
  );
}

const exitOf = (child: ReturnType<typeof cliProcess>) =>
  new Promise<number | null>(resolve => child.on('exit', code => resolve(code)));

/** What a run kept that does not depend on time. */
const shape = (result: EvalResult) =>
  result.cases.map(({ id, trial, output, scores }) => ({ id, trial, output, scores }));

describe('agent-trace eval', () => {
  it('runs an eval module as an experiment: the means, the cost, a trace per case, kept in the store', async () => {
    const store = fresh();
    const { code, stdout } = await evaluate(store, careful, 'main');
    expect(code).toBe(0);
    expect(stdout).toContain('eval refunds: 4 runs · experiment ');
    expect(stdout).toContain('trajectory 1.000  exact 1.000');
    expect(stdout).toContain('cost $0.0000 + 12 unpriced calls · 348 tokens · fake-model');
    const [experiment] = await list(store);
    expect(experiment).toMatchObject({ eval: 'refunds', status: 'completed', runs: 4 });
    expect(experiment?.git.branch).toBe('main');
    expect(readdirSync(join(experiment!.folder, 'traces', 'refunds')).sort()).toEqual(
      [1, 2, 3, 4].map(id => `order-${id}.t1.jsonl`),
    );
    const listed = await cli(['eval', 'list', '--store', store]);
    expect(listed.stdout).toMatch(
      / refunds {2}completed {2}main@\w+.* {2}4 runs {2}trajectory 1\.000 exact 1\.000/,
    );
  });

  it('compare, by default the newest against main: a planted regression is named and fails the gate, in text, JUnit and Markdown', async () => {
    const store = fresh();
    const reports = fresh();
    await evaluate(store, careful, 'main');
    await evaluate(store, careless, 'prompt-change');
    const junit = join(reports, 'evals.xml');
    const markdown = join(reports, 'summary.md');
    const broken = await cli([
      'eval',
      'compare',
      '--store',
      store,
      '--fail-on-regression',
      '--junit',
      junit,
      '--markdown',
      markdown,
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      'regressed order-2: 1 → 0 (step 1: refund({"order":2}) where the reference has lookup({"order":2}))',
    );
    expect(broken.stdout).toMatch(/^eval refunds: \S+ \(main \w+ ?\w*\) → \S+ \(prompt-change/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuite name="refunds · trajectory" tests="4" failures="1">');
    expect(xml).toMatch(
      /<testcase classname="refunds · trajectory" name="order-2">\s*<failure message="regressed: 1 → 0">step 1: refund/,
    );
    const summary = readFileSync(markdown, 'utf8');
    expect(summary).toContain('## ❌ Evals regressed');
    expect(summary).toContain('| trajectory | 1.000 | 0.750 | -0.250 |');
    expect(summary).toContain('- ❌ **order-2** (trajectory): 1 → 0: step 1: refund');
    const report = await cli(['eval', 'compare', '--store', store]);
    expect(report.code).toBe(0); // without the gate, a report
    await evaluate(store, careful, 'prompt-change');
    const fixed = await cli(['eval', 'compare', '--store', store, '--fail-on-regression']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('trajectory: 1.000 → 1.000 (+0.000');
  });

  it('names a case whose trials disagree as flaky, not as a regression', async () => {
    const store = fresh();
    await evaluate(store, careful, 'main', '--trials', '3');
    await evaluate(store, flaky, 'retry', '--trials', '3');
    const compared = await cli(['eval', 'compare', '--store', store, '--fail-on-regression']);
    expect(compared.code).toBe(0);
    expect(compared.stdout).toContain('flaky order-3 (trajectory): trials scored 1, 0, 1');
    expect(compared.stdout).toContain('  pass@k: 1.000 → 1.000');
    expect(compared.stdout).not.toContain('regressed');
  });

  it('compares named experiments by id or its start, and says what is missing', async () => {
    const store = fresh();
    await evaluate(store, careful, 'main');
    await evaluate(store, careless, 'main');
    const [newest, oldest] = await list(store);
    const named = await cli([
      'eval',
      'compare',
      oldest!.id,
      newest!.id.slice(0, 20),
      '--store',
      store,
    ]);
    expect(named.stdout).toContain('regressed order-2');
    const printed = await cli(['eval', careless, '--store', store, '--json']);
    const file = join(fresh(), 'careless.json');
    writeFileSync(file, printed.stdout);
    const fromFile = await cli(['eval', 'compare', oldest!.id, file, '--store', store]);
    expect(fromFile.stdout).toContain(`→ ${file}`);
    expect(fromFile.stdout).toContain('regressed order-2');
    const unknown = await cli(['eval', 'compare', 'nope', newest!.id, '--store', store]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Experiment 'nope' is not in the store.");
    const noBaseline = await cli(['eval', 'compare', '--store', store, '--branch', 'release']);
    expect(noBaseline.code).toBe(2);
    expect(noBaseline.stderr).toContain(
      "No baseline for eval 'refunds': no completed experiment on branch 'release'",
    );
  });

  it('--shard 1/2 and --shard 2/2 on two processes, one experiment id, add up to the unsharded run', async () => {
    const store = fresh();
    const shard = (which: string) =>
      cliProcess(['eval', careful, '--store', store, '--shard', which, '--experiment', 'ci-41']);
    const exits = await Promise.all([exitOf(shard('1/2')), exitOf(shard('2/2'))]);
    expect(exits).toEqual([0, 0]);
    await evaluate(store, careful, 'main', '--experiment', 'whole');
    const kept = new ExperimentStore({ root: store });
    const merged = await kept.result('ci-41');
    expect(merged.experiment.shards).toEqual(['1/2', '2/2']);
    expect(shape(merged)).toEqual(shape(await kept.result('whole')));
  });

  it('Ctrl-C keeps every finished case, seals the running one, and exits 130', async () => {
    const store = fresh();
    const child = cliProcess(['eval', hanging, '--store', store, '--experiment', 'stopped']);
    const exited = exitOf(child);
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const folder = join(store, 'experiments', 'stopped');
    const finished = () => {
      const journal = existsSync(folder)
        ? readdirSync(folder).find(name => name.startsWith('cases.'))
        : undefined;
      return journal === undefined
        ? 0
        : readFileSync(join(folder, journal), 'utf8').split('"type":"case"').length - 1;
    };
    while (finished() < 2) await new Promise(resolve => setTimeout(resolve, 20));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain("Stopped: the finished cases of 'refunds' are kept");
    const kept = await new ExperimentStore({ root: store }).result('stopped');
    expect(kept.experiment.status).toBe('interrupted');
    expect(kept.cases.map(each => each.id)).toEqual(['order-1', 'order-2']);
    const sealed = await validateTraceFile(join(folder, 'traces', 'refunds', 'order-3.t1.jsonl'));
    expect(sealed.valid).toBe(true);
    expect(sealed.runs[0]?.stopReason).toBe('aborted');
  });

  it('draws a progress line on a terminal, and clears it at the end', async () => {
    const lines: (string | undefined)[] = [];
    const code = await runCli(['eval', careful, '--store', fresh(), '--concurrency', '1'], {
      stdout: () => undefined,
      stderr: () => undefined,
      env: {},
      isTTY: true,
      progress: line => lines.push(line),
    });
    expect(code).toBe(0);
    expect(lines).toEqual([
      `refunds ▕${'█'.repeat(6)}${'░'.repeat(18)}▏ 1/4`,
      `refunds ▕${'█'.repeat(12)}${'░'.repeat(12)}▏ 2/4`,
      `refunds ▕${'█'.repeat(18)}${'░'.repeat(6)}▏ 3/4`,
      `refunds ▕${'█'.repeat(24)}▏ 4/4`,
      undefined,
    ]);
  });

  it('says what is wrong with a module that is not an eval, or a bad shard', async () => {
    const store = fresh();
    const notEval = await evaluate(store, 'test/fixtures/refund-desk.ts', 'main');
    expect(notEval.code).toBe(2);
    expect(notEval.stderr).toContain('has no default export that is an eval');
    const badShard = await evaluate(store, careful, 'main', '--shard', '3/2');
    expect(badShard.code).toBe(2);
    expect(badShard.stderr).toBe(
      "Invalid --shard '3/2': expected i/n with 1 ≤ i ≤ n, e.g. --shard 1/2.",
    );
  });
});
