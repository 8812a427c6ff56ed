import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { chromiumForFile, openPage, scratchFolder, text } from './viewer-support.js';

const browser = chromiumForFile();

/** A store with a baseline on main and a candidate with the planted regression on a branch. */
async function storeWithRegression(): Promise<string> {
  const store = scratchFolder();
  const evaluate = (file: string, branch: string) =>
    cli(['eval', `test/fixtures/evals/${file}`, '--store', store], { AGENT_TRACE_BRANCH: branch });
  await evaluate('refunds.eval.ts', 'main');
  await evaluate('refunds-careless.eval.ts', 'prompt-change');
  return store;
}

describe('the experiments page, in Chromium', () => {
  it('shows cases × scorers against the baseline, opens a case trace and the two traces of a case side by side', async () => {
    const store = await storeWithRegression();
    const out = join(scratchFolder(), 'experiment.html');
    const written = await cli(['eval', 'view', '--store', store, '--out', out, '--no-open']);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`wrote ${out}`);
    const page = await openPage(browser(), readFileSync(out, 'utf8'));
    expect(await text(page.getByTestId('experiment-sides'))).toMatch(
      /\(main \w+.*\) · 4 runs.* → .*\(prompt-change \w+.*\) · 4 runs/,
    );
    const scorers = page.getByLabel('Scorers');
    expect(await text(scorers)).toContain('trajectory\t1.000\t0.750\t-0.250 (-0.750 to +0.000)');
    const regressed = page.locator('tr[data-case="order-2"] td[data-scorer="trajectory"]');
    expect(await regressed.getAttribute('class')).toContain('change-regressed');
    expect(await text(regressed)).toContain('0.00 ▼ -1.000');
    expect(await text(regressed)).toContain('step 1: refund({"order":2})');
    const steady = page.locator('tr[data-case="order-1"] td[data-scorer="trajectory"]');
    expect(await steady.getAttribute('class')).toContain('change-same');

    // Only the cases that moved.
    await page.getByLabel('only cases that moved').check();
    expect(await page.locator('table.cases tbody tr').count()).toBe(1);
    await page.getByLabel('only cases that moved').uncheck();

    // A case opens its trace: the waterfall of its run, and a way back.
    await page.locator('tr[data-case="order-2"] th button').click();
    await page.waitForSelector('.waterfall-rows .row');
    expect(await text(page.locator('.header h1'))).toContain('case order-2 · trial 1');
    // Its entry agent shows the case's scores, as a backend shows the evaluation events.
    await page.locator('.waterfall-rows .row[data-seq="1"]').click();
    const evaluations = await text(page.getByLabel('Evaluations'));
    expect(evaluations).toContain('trajectory 0 · fail');
    expect(evaluations).toContain('step 1: refund({"order":2})');
    await page.getByRole('button', { name: /← experiment/ }).click();
    await page.waitForSelector('table.cases');

    // The baseline's trace of the case beside the candidate's, diverging where the lookup went.
    await page
      .locator('tr[data-case="order-2"]')
      .getByRole('button', { name: 'diff with baseline' })
      .click();
    await page.waitForSelector('.diff-page');
    expect(await page.locator('.diff-row.first-divergence').count()).toBe(1);
    const details = await text(page.getByLabel('Step details'));
    expect(details).toContain('only in the first');
    expect(details).toContain('the model answers lookup({"order":2})');
    await page.getByRole('button', { name: /← experiment/ }).click();
    await page.waitForSelector('table.cases');
    await page.close();
  });

  it('shows an experiment without a baseline, and says when there is nothing to show', async () => {
    const store = scratchFolder();
    await cli(['eval', 'test/fixtures/evals/refunds.eval.ts', '--store', store], {
      AGENT_TRACE_BRANCH: 'main',
    });
    const out = join(scratchFolder(), 'alone.html');
    expect((await cli(['eval', 'view', '--store', store, '--out', out, '--no-open'])).code).toBe(0);
    const page = await openPage(browser(), readFileSync(out, 'utf8'));
    expect(await page.locator('table.cases tbody tr').count()).toBe(4);
    expect(await page.getByText('diff with baseline').count()).toBe(0);
    await page.close();
    const empty = await cli(['eval', 'view', '--store', scratchFolder(), '--no-open']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('No experiments in');
  });
});
