// docs/guide/testing.md, "Quick reference"
import { agent, run } from '@agent-trace/core';
import { fakeLLM, fakeTool } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { expect, it } from 'vitest';

it('scripts a model and a tool, and checks the trace', async () => {
  const search = fakeTool('search', { steps: [{ result: ['doc-1'] }] });
  const model = fakeLLM([
    { toolCalls: [{ name: 'search', args: { q: 'otel' } }] },
    { text: 'Found doc-1.' },
  ]);
  const trace = memorySink();
  const result = await run(
    agent({ name: 'researcher', model, tools: [search] }),
    'find otel docs',
    {
      trace,
    },
  );

  expect(trace).toHaveCalledTool('search', { q: 'otel' });
  expect(trace).toHaveToolSequence(['search'], { mode: 'strict' }); // or inOrder, unordered, subset
  expect(result).toHaveStopReason('completed');
  expect(trace).toBeWellFormedTrace();
});
