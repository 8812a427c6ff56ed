import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, run, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, readTrace, TraceParseError, type TornTail } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

async function sampleLines(): Promise<string[]> {
  const sink = memorySink();
  await run(agent({ name: 'a', model: fakeLLM([{ text: 'hello' }]) }), 'hi', { trace: sink });
  return sink.events.map(event => JSON.stringify(event));
}

async function collect(path: string, onTornTail?: (tail: TornTail) => void): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  for await (const event of readTrace(path, onTornTail === undefined ? {} : { onTornTail }))
    events.push(event);
  return events;
}

const directory = mkdtempSync(join(tmpdir(), 'agent-trace-read-'));

describe('readTrace', () => {
  it('streams every event of a file in order, unknown fields kept', async () => {
    const lines = await sampleLines();
    const path = join(directory, 'ok.jsonl');
    const extended = lines.map((line, index) =>
      index === 0 ? line.replace('}', ',"x_custom":1}') : line,
    );
    writeFileSync(path, `${extended.join('\n')}\n`);
    const events = await collect(path);
    expect(events.map(event => event.seq)).toEqual(lines.map((_, index) => index));
    expect((events[0] as unknown as { x_custom: number }).x_custom).toBe(1);
  });

  it('reports and skips a torn last line, keeping every complete line', async () => {
    const lines = await sampleLines();
    const path = join(directory, 'torn.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n${lines[0]!.slice(0, 25)}`);
    const tails: TornTail[] = [];
    const events = await collect(path, tail => tails.push(tail));
    expect(events).toHaveLength(lines.length);
    expect(tails).toEqual([{ file: path, line: lines.length + 1, length: 25 }]);
  });

  it('throws for a line that is not JSON, naming the file and line', async () => {
    const lines = await sampleLines();
    const path = join(directory, 'bad-json.jsonl');
    writeFileSync(path, `${lines[0]}\n${lines[1]}\n{"v":1,"seq":\n${lines[2]}\n`);
    const error = await collect(path).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TraceParseError);
    expect((error as TraceParseError).line).toBe(3);
    expect((error as Error).message).toMatch(
      new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: not valid JSON \\(`),
    );
  });

  it('throws for a line that is JSON but not a trace event, saying which field is wrong', async () => {
    const lines = await sampleLines();
    const path = join(directory, 'bad-event.jsonl');
    const broken = lines[1]!.replace(/"seq":\d+/, '"seq":-4');
    writeFileSync(path, `${lines[0]}\n${broken}\n`);
    await expect(collect(path)).rejects.toThrow(
      `${path}:2: not a valid trace event ('agent_start'): seq: Too small: expected number to be >=0.`,
    );
  });

  it('refuses a schema version it does not know, saying to upgrade', async () => {
    const path = join(directory, 'future.jsonl');
    writeFileSync(path, '{"v":2,"event":"run_start"}\n');
    await expect(collect(path)).rejects.toThrow(
      `${path}:1: trace schema version 2 is not supported (this agent-trace reads 1): the file was written by an agent-trace with a newer major version. Upgrade agent-trace to read this trace.`,
    );
  });

  it('throws a clear error for a missing file', async () => {
    await expect(collect(join(directory, 'nope.jsonl'))).rejects.toThrow(
      /^Cannot read trace file '.*nope\.jsonl': ENOENT.*Check the path; the file does not exist\.$/,
    );
  });

  it('reads a file in chunks without splitting multi-byte characters', async () => {
    const sink = memorySink();
    await run(agent({ name: 'a', model: fakeLLM([{ text: '漢字'.repeat(400_000) }]) }), 'é', {
      trace: sink,
    });
    const path = join(directory, 'unicode.jsonl');
    for (const event of sink.events) appendFileSync(path, `${JSON.stringify(event)}\n`);
    const events = await collect(path);
    expect(events.find(event => event.event === 'llm_end')).toMatchObject({
      text: '漢字'.repeat(400_000),
    });
  });
});
