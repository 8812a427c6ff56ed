/**
 * Records the cassette the example's continuations answer from: `npx tsx
 * examples/regress/record-continuation.ts` records the week, then regresses it against both
 * changed prompts with the model in `auto` mode (a request recorded once is answered from the
 * cassette after), so every request a continuation sends is kept, once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { regress } from '@agent-trace/evals';
import { continuationCassette, continuationModel } from './continuation.js';
import { supportDesk } from './desk.js';
import { recordWeek } from './record.js';

const folder = mkdtempSync(join(tmpdir(), 'regress-record-'));
await recordWeek(folder);
rmSync(continuationCassette, { force: true });
const recording = continuationModel('auto');
for (const version of ['v2', 'v3'] as const) {
  const result = await regress({
    library: folder,
    agent: supportDesk(version),
    continueWith: recording,
    concurrency: 1,
  });
  console.log(`${version}: ${result.counts.continued} runs continued`);
}
rmSync(folder, { recursive: true, force: true });
console.log(`wrote ${continuationCassette}`);
