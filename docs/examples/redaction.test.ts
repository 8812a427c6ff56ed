// docs/guide/redaction.md: the known shapes, and patterns, fields and a function of your own.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { agent, run, tool } from '@agent-trace/core';
import { jsonlSink as fileSink } from '@agent-trace/trace';
import { fakeLLM } from '@agent-trace/testing';
import { expect, it } from 'vitest';

// The page's `traces/run.jsonl` is taken inside a folder of this test.
const dir = mkdtempSync(join(tmpdir(), 'agent-trace-redaction-guide-'));
mkdirSync(join(dir, 'traces'));
const jsonlSink = (path: string) => fileSink(join(dir, path));

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
  const input = 'Who is customer 7?';
  const result = await run(desk, input, {
    trace: jsonlSink('traces/run.jsonl'),
    redaction: {
      patterns: [/\b\d{4}-\d{4}-\d{4}-\d{4}\b/],
      fields: ['ssn'],
      redact: text => text.replace(/\S+@\S+/g, '[email]'),
    },
  });
  const written = readFileSync(join(dir, 'traces/run.jsonl'), 'utf8');
  for (const secret of ['123-45-6789', '4111-1111-1111-1111', 'ana@example.com', 'sk-proj-abcdef'])
    expect(written).not.toContain(secret);
  expect(written).toContain('[redacted:');
  expect(written).toContain('[email]');
  // The run itself saw the real values: its output is the model's answer as given.
  expect(result.output).toContain('sk-proj-abcdefghijklmnopqrstuvwxyz012345');
  const lines = written.trim().split('\n');
  expect(JSON.parse(lines.at(-1) as string)).toMatchObject({
    event: 'run_end',
    redactions: expect.any(Number),
  });
});
