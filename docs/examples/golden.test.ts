// docs/guide/testing.md, "A golden test"
import { fileURLToPath } from 'node:url';
import { run, sequentialIds, steppingClock } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { supportDesk } from './support-agent.js';

it('handles a refund exactly as recorded', async () => {
  const support = fakeLLM([
    { toolCalls: [{ name: 'lookup_order', args: { orderId: 7 } }] },
    { toolCalls: [{ name: 'transfer_to_billing' }] },
  ]);
  const billing = fakeLLM([{ text: 'Refunded 42 EUR.' }]);
  const trace = memorySink();
  await run(supportDesk({ support, billing }), 'Refund order 7', {
    trace,
    clock: steppingClock(),
    ids: sequentialIds(),
  });

  // golden/docs-refund.jsonl; UPDATE_GOLDEN=1 (or vitest -u) rewrites it after an intended change.
  await expect(trace).toMatchGoldenTrace('docs-refund', {
    directory: fileURLToPath(new URL('../../golden', import.meta.url)),
  });
});
