// docs/guide/redaction.md: the known shapes, and patterns, fields and a function of your own.
import { z } from 'zod';
import { agent, run, tool } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { fakeLLM } from '@agent-trace/testing';
import { expect, it } from 'vitest';

it('replaces secrets before any sink sees them, and leaves the run itself alone', async () => {
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a customer up',
    input: z.object({ id: z.number() }),
    execute: () => ({ email: 'ana@example.com', ssn: '123-45-6789', card: '4111-1111-1111-1111' }),
  });
  const desk = agent({
    name: 'desk',
    model: fakeLLM([
      { toolCalls: [{ name: 'lookup', args: { id: 7 } }] },
      { text: 'Key sk-proj-abcdefghijklmnopqrstuvwxyz012345 is in the config.' },
    ]),
    tools: [lookup],
  });
  const trace = memorySink();
  const result = await run(desk, 'Who is customer 7?', {
    trace,
    redaction: {
      patterns: [/\b\d{4}-\d{4}-\d{4}-\d{4}\b/],
      fields: ['ssn'],
      redact: text => text.replace(/\S+@\S+/g, '[email]'),
    },
  });
  const written = JSON.stringify(trace.events);
  for (const secret of ['123-45-6789', '4111-1111-1111-1111', 'ana@example.com', 'sk-proj-abcdef'])
    expect(written).not.toContain(secret);
  expect(written).toContain('[redacted:');
  expect(written).toContain('[email]');
  // The run itself saw the real values: its output is the model's answer as given.
  expect(result.output).toContain('sk-proj-abcdefghijklmnopqrstuvwxyz012345');
  expect(trace.events.at(-1)).toMatchObject({ event: 'run_end', redactions: expect.any(Number) });
});
