import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvalResult } from '@agent-trace/evals';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const careful = 'test/fixtures/evals/refunds.eval.ts';
const careless = 'test/fixtures/evals/refunds-careless.eval.ts';

/** Runs `agent-trace eval` into a folder of its own; gives the output and the experiment's result file. */
async function evaluate(file: string, ...more: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'agent-trace-eval-cli-'));
  const printed = await cli(['eval', file, '--out', out, ...more]);
  const [stamp] = existsSync(join(out, 'refunds')) ? readdirSync(join(out, 'refunds')) : [];
  const folder = join(out, 'refunds', stamp ?? '');
  return { ...printed, folder, result: join(folder, 'result.json') };
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as EvalResult;

describe('agent-trace eval', () => {
  it('runs an eval module, prints the means and keeps the experiment with a trace per case', async () => {
    const { code, stdout, folder, result } = await evaluate(careful);
    expect(code).toBe(0);
    expect(stdout).toContain('eval refunds: 4 runs');
    expect(stdout).toContain('trajectory 1.000  exact 1.000');
    expect(read(result).cases.map(each => each.id)).toEqual([
      'order-1',
      'order-2',
      'order-3',
      'order-4',
    ]);
    expect(readdirSync(join(folder, 'traces', 'refunds')).sort()).toEqual([
      'order-1.t1.jsonl',
      'order-2.t1.jsonl',
      'order-3.t1.jsonl',
      'order-4.t1.jsonl',
    ]);
  });

  it('compare names a planted regression and fails the gate; an unchanged agent passes it', async () => {
    const baseline = await evaluate(careful);
    const again = await evaluate(careful);
    const regressed = await evaluate(careless);
    const same = await cli([
      'eval',
      'compare',
      baseline.result,
      again.result,
      '--fail-on-regression',
    ]);
    expect(same.code).toBe(0);
    const broken = await cli([
      'eval',
      'compare',
      baseline.result,
      regressed.result,
      '--fail-on-regression',
    ]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      'regressed order-2: 1 → 0 (step 1: refund({"order":2}) where the reference has lookup({"order":2}))',
    );
    const report = await cli(['eval', 'compare', baseline.result, regressed.result]);
    expect(report.code).toBe(0); // without the gate, a report
  });

  it('runs shards that add up to the unsharded run', async () => {
    const whole = read((await evaluate(careful)).result);
    const first = read((await evaluate(careful, '--shard', '1/2')).result);
    const second = read((await evaluate(careful, '--shard', '2/2')).result);
    const shape = (result: EvalResult) =>
      result.cases.map(({ id, output, scores }) => ({ id, output, scores }));
    expect([...shape(first), ...shape(second)].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      shape(whole),
    );
  });

  it('says what is wrong with a module that is not an eval, or a bad shard', async () => {
    const notEval = await evaluate('test/fixtures/refund-desk.ts');
    expect(notEval.code).toBe(2);
    expect(notEval.stderr).toContain('has no default export that is an eval');
    const badShard = await evaluate(careful, '--shard', '3/2');
    expect(badShard.code).toBe(2);
    expect(badShard.stderr).toBe(
      "Invalid --shard '3/2': expected i/n with 1 ≤ i ≤ n, e.g. --shard 1/2.",
    );
  });
});
