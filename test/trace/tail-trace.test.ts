import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agent, run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, tailTrace, TraceParseError, type TailBatch } from '@agent-trace/trace';
import { deterministic } from '../support/deterministic.js';

async function events() {
  const sink = memorySink();
  await run(
    agent({ name: 'a', instructions: 'Answer.', model: fakeLLM([{ text: 'hi' }]) }),
    'hello',
    {
      trace: sink,
      ...deterministic(),
    },
  );
  return sink.events.map(event => JSON.stringify(event));
}

describe('tailTrace', () => {
  it('yields what the file holds, then each appended line; a line without its newline waits for it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tail-')), 'live.jsonl');
    const lines = await events();
    writeFileSync(file, `\uFEFF${lines[0]}\n${lines[1]!.slice(0, 20)}`);
    const controller = new AbortController();
    const batches = tailTrace(file, { pollMs: 5, signal: controller.signal });
    const first = await batches.next();
    expect(first.value).toMatchObject({ partial: true, events: [{ event: 'run_start' }] });
    appendFileSync(file, `${lines[1]!.slice(20)}\n${lines.slice(2).join('\n')}\n`);
    const second = await batches.next();
    expect(second.value).toMatchObject({ partial: false });
    expect((second.value as TailBatch).events.map(event => event.seq)).toEqual(
      lines.slice(1).map((_, index) => index + 1),
    );
    controller.abort();
    expect(await batches.next()).toEqual({ done: true, value: undefined });
  });

  it('throws the reader’s error, with file and line, for an invalid line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tail-')), 'bad.jsonl');
    writeFileSync(file, `${(await events())[0]}\nnot json\n`);
    const batches = tailTrace(file);
    await expect(batches.next()).rejects.toThrow(TraceParseError);
    await expect(tailTrace(file).next()).rejects.toThrow(`${file}:2`);
  });
});
