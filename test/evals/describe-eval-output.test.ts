/** A failing `describeEval` says each case's reason once (it printed them twice). */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const exec = promisify(execFile);

it('prints the reasons of a failing scorer once', async () => {
  const failed = await exec(
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--config',
      'test/fixtures/evals/failing-describe.config.ts',
    ],
    { env: { ...process.env, NO_COLOR: '1', CI: 'true' }, timeout: 60_000 },
  ).catch((error: { code: number; stdout: string; stderr: string }) => error);
  expect((failed as { code?: number }).code).toBe(1);
  const output = `${failed.stdout}${failed.stderr}`;
  expect(output).toContain("scorer 'trajectory' of eval 'refunds': mean 0.5, under 1.");
  expect(output.split('order-2#1: 0 (step 1').length - 1).toBe(1);
}, 60_000);
