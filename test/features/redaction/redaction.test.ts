import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, stream, tool, type Chunk } from '@agent-trace/core';
import { Redactor } from '@agent-trace/core/redaction';
import { placeholderFor } from '@agent-trace/core/internal';
import { fakeLLM, rerunTrace } from '@agent-trace/testing';
import { jsonlSink, memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const secret = 'sk-live-4f9c2a7b1e8d6c3a5b0f';
const password = 'hunter2-correct-horse';

const leaky = tool({
  name: 'fetch_config',
  description: 'Reads the service config',
  input: z.object({ service: z.string() }),
  execute: ({ service }) => ({
    service,
    openaiKey: `key is ${secret}`,
    headers: { Authorization: `Basic ${password}` },
    password,
  }),
});

function desk(replaying = false, window?: number) {
  return agent({
    ...(window === undefined ? {} : { memory: { window } }),
    name: 'ops',
    model: fakeLLM(
      [
        { toolCalls: [{ name: 'fetch_config', args: { service: 'billing' } }] },
        { text: `The billing service uses ${secret}.` },
      ],
      { allowUnusedSteps: replaying }, // a replay answers from the recording
    ),
    tools: [leaky],
  });
}

describe('redaction', () => {
  it('keeps a secret planted in a tool result out of every sink and every chunk', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-redaction-')), 'run.jsonl');
    const memory = memorySink();
    const file = jsonlSink(path);
    const chunks: Chunk[] = [];
    const running = stream(desk(), `Check the billing config; my key is ${secret}`, {
      trace: [memory, file],
    });
    for await (const chunk of running) chunks.push(chunk);
    const result = await running.result;
    await file.close();

    for (const text of [
      JSON.stringify(memory.events),
      readFileSync(path, 'utf8'),
      JSON.stringify(chunks),
    ]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(password);
      expect(text).toContain(placeholderFor(secret));
    }
    expect(memory.events.at(-1)).toMatchObject({
      event: 'run_end',
      redactions: expect.any(Number) as number,
    });
    expect((memory.events.at(-1) as { redactions: number }).redactions).toBeGreaterThanOrEqual(5);
    // The run itself is not changed: the model and the result see the real values.
    expect(result.output).toBe(`The billing service uses ${secret}.`);
  });

  it('uses stable placeholders, so a redacted recording replays without divergence', async () => {
    const recording = memorySink();
    await run(desk(), 'Check the billing config', { trace: recording });
    const report = await rerunTrace(recording.events, desk(true));
    expect(report.differences).toEqual([]);
  });

  it('replays a redacted recording without divergence under a memory window too', async () => {
    const recording = memorySink();
    await run(desk(false, 4), 'Check the billing config', { trace: recording });
    const report = await rerunTrace(recording.events, desk(true, 4));
    expect(report.differences).toEqual([]);
  });

  it('replaces whatever a secret field holds, and leaves ordinary values alone', () => {
    const redactor = new Redactor({ fields: ['pin'] });
    const value = {
      pin: 1234,
      nested: [{ api_key: { id: 7 } }, { note: 'not-a-secret-field', count: 3 }],
      ok: true,
      tokens: 15,
      password: '[redacted]',
    };
    expect(redactor.value(value)).toEqual({
      pin: '[redacted]',
      nested: [{ api_key: '[redacted]' }, { note: 'not-a-secret-field', count: 3 }],
      ok: true,
      tokens: 15,
      password: '[redacted]', // a placeholder stays as it is
    });
    expect(redactor.count).toBe(2);
    expect(redactor.value({ tokens: 15, text: 'short' })).toEqual({ tokens: 15, text: 'short' });
  });

  it('takes user patterns and a redact function, and can be turned off', async () => {
    const sink = memorySink();
    const model = fakeLLM([{ text: 'Customer 4111-1111-1111-1111 lives at 1 Main St.' }]);
    await run(agent({ name: 'a', model }), 'go', {
      trace: sink,
      redaction: {
        patterns: [/\b\d{4}-\d{4}-\d{4}-\d{4}\b/],
        redact: text => text.replace('1 Main St', '[address]'),
      },
    });
    const text = JSON.stringify(sink.events);
    expect(text).not.toContain('4111-1111-1111-1111');
    expect(text).toContain('[address]');

    const open = memorySink();
    await run(agent({ name: 'a', model: fakeLLM([{ text: secret }]) }), 'go', {
      trace: open,
      redaction: false,
    });
    expect(JSON.stringify(open.events)).toContain(secret);
  });
});
