/**
 * `pnpm tsx examples/regress/main.ts`: records a week of the support desk (200 runs), then
 * regresses it against today's code with the refunds prompt changed: only the refund requests
 * diverge, each continued from where it changed and scored, the rest pass with no model call.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noErrors, regress, stopReasonIs } from '@agent-trace/evals';
import { continuationModel } from './continuation.js';
import { supportDesk } from './desk.js';
import { recordWeek } from './record.js';

const folder = mkdtempSync(join(tmpdir(), 'regress-'));
await recordWeek(folder);
const result = await regress({
  library: folder,
  agent: supportDesk('v2'),
  continueWith: continuationModel(),
  scorers: [stopReasonIs('completed'), noErrors()],
});
console.log(
  `${result.counts.same} same, ${result.counts.continued} continued (${result.improved.length} improved, ${result.regressed.length} regressed), ${result.modelCalls} model calls`,
);
