// docs/guide/regress.md: last week's recorded runs of the support desk (examples/regress/) as a
// regression suite for today's code.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { regress } from '@agent-trace/evals';
import { expect, it } from 'vitest';
import { continuationModel } from '../../examples/regress/continuation.js';
import { supportDesk } from '../../examples/regress/desk.js';
import { recordWeek } from '../../examples/regress/record.js';
import { deskScorers } from '../../examples/regress/scorers.js';

it('reruns the refund requests against the changed prompt, continues and scores them', async () => {
  const library = mkdtempSync(join(tmpdir(), 'regress-guide-'));
  await recordWeek(library, 40);
  const root = mkdtempSync(join(tmpdir(), 'regress-guide-store-'));

  const result = await regress({
    library, // a folder of JSONL traces, indexed on the way
    where: "input ILIKE '%refund%'", // SQL over the library's runs view
    agent: supportDesk('v2'), // today's code: the refunds prompt changed
    continueWith: continuationModel(), // goes on from each divergence: a model's recorded answers
    scorers: deskScorers, // scored on the recorded run and on today's
    maxCostUsd: 5,
    store: { root }, // two experiments: the recorded runs, and today's
  });
  result.counts; // { same: 0, diverged: 0, continued: 13, failed: 0 }
  result.improved; // the runs whose scores went up: the refunds of orders that do not exist
  result.cases[0]?.divergence; // "seq 4, agent 'refunds' … changed: the instructions: …"

  expect(result.counts).toEqual({ same: 0, diverged: 0, continued: 13, failed: 0 });
  expect(result.improved).toHaveLength(4);
  expect(result.cases.every(found => /refund/i.test(found.input))).toBe(true);
  expect(result.regressed).toEqual([]);
  expect(result.cases[0]?.divergence).toContain('changed:  the instructions');
});
