import { agent, stream, tool, type Chunk } from '@agent-trace/core';
import {
  chunkEventStream,
  chunkResponse,
  ChunkStreamError,
  readChunkEventStream,
} from '@agent-trace/core/sse';
import { fakeLLM } from '@agent-trace/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { draft } from '../../examples/document-review/draft.js';

async function* tap(chunks: AsyncIterable<Chunk>, seen: Chunk[]): AsyncGenerator<Chunk> {
  for await (const chunk of chunks) {
    seen.push(chunk);
    yield chunk;
  }
}

const body = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
  });

async function readAll(source: ReadableStream<Uint8Array>) {
  const chunks: Chunk[] = [];
  const reading = readChunkEventStream(source);
  for (;;) {
    const next = await reading.next();
    if (next.done === true) return { chunks, end: next.value };
    chunks.push(next.value);
  }
}

describe('chunks over server-sent events', () => {
  it('round-trips the demo desk: encode, parse, the same chunks, then how the run ended', async () => {
    const running = stream(reviewDesk(), `Review this draft: ${draft}`);
    const sent: Chunk[] = [];
    const response = new Response(chunkEventStream(tap(running, sent), () => running.result));
    const { chunks, end } = await readAll(response.body!);
    expect(sent.length).toBeGreaterThan(20);
    expect(new Set(sent.map(chunk => chunk.type))).toEqual(
      new Set(['delta', 'tool_call', 'tool_response', 'usage', 'handoff']),
    );
    expect(chunks).toEqual(sent);
    expect(end).toMatchObject({ stopReason: 'completed' });
  });

  it('serves a run as a Response with the event-stream headers', async () => {
    const response = chunkResponse(
      stream(agent({ name: 'a', model: fakeLLM([{ text: 'hello there' }]) }), 'hi'),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const text = await response.text();
    expect(text).toMatch(/^id: 0\nevent: delta\ndata: \{"time":/);
    expect(
      text.endsWith('event: end\ndata: {"stopReason":"completed","output":"hello there"}\n\n'),
    ).toBe(true);
  });

  it('keeps tool errors and an error chunk through the round trip', async () => {
    const broken = tool({
      name: 'broken',
      description: 'Fails',
      input: z.object({}),
      execute: () => {
        throw new Error('down');
      },
    });
    const running = stream(
      agent({
        name: 'a',
        model: fakeLLM([{ toolCalls: [{ name: 'broken' }] }, { text: 'Sorry.' }]),
        tools: [broken],
        circuitBreaker: false,
      }),
      'go',
    );
    const sent: Chunk[] = [];
    const { chunks, end } = await readAll(
      chunkEventStream(tap(running, sent), () => running.result),
    );
    expect(chunks).toEqual(sent);
    expect(chunks.at(-1)).toMatchObject({ type: 'error', data: { kind: 'tool_failure_degraded' } });
    expect(end).toEqual({ stopReason: 'tool_failure_degraded', output: 'Sorry.' });
  });

  it('refuses what is not a chunk, and a gap in seq, clearly', async () => {
    await expect(readAll(body('event: delta\ndata: {"oops":1}\n\n'))).rejects.toThrow(
      /^Chunk stream event 'delta' is not a chunk: expected \{ time, agent, session, type, data, seq \}/,
    );
    const chunk = (seq: number) =>
      `event: delta\ndata: ${JSON.stringify({ time: 't', agent: 'a', session: 's', type: 'delta', data: { text: 'x' }, seq })}\n\n`;
    const gap = readAll(body(chunk(0) + chunk(2)));
    await expect(gap).rejects.toBeInstanceOf(ChunkStreamError);
    await expect(gap).rejects.toThrow('Chunk stream gap: expected seq 1, got 2.');
  });

  it('stops the run when the client goes away', async () => {
    const running = stream(
      agent({
        name: 'a',
        model: fakeLLM([{ text: 'one two three four five six' }], { allowUnusedSteps: true }),
      }),
      'go',
    );
    const reader = chunkEventStream(running, () => running.result).getReader();
    await reader.read();
    await reader.cancel();
    expect((await running.result).stopReason).toBe('aborted');
  });
});
