import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agent, stream } from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { afterEach, describe, expect, it, vi } from 'vitest';

const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const answer = `${chunk({ content: 'Hi' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`;

/** A Chat Completions server on 127.0.0.1 that streams `answer`, then ends the body or not. */
async function chatServer(endsBody: boolean) {
  const closed: boolean[] = [];
  const server: Server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    if (endsBody) response.end(answer);
    else response.write(answer);
    response.on('close', () => closed.push(response.writableFinished));
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return { server, closed, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

async function streamed(baseURL: string) {
  const sink = memorySink();
  const running = stream(
    agent({ name: 'a', model: openai('gpt-4o-mini', { apiKey: 'k', baseURL }) }),
    'go',
    { trace: sink },
  );
  for await (const part of running) void part;
  return { result: await running.result, events: sink.events };
}

describe('the body of a streamed answer, after [DONE]', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise(resolve => server?.close(resolve));
  });

  it('is cancelled when the server keeps it open: the call ends at [DONE], it does not wait', async () => {
    const chat = await chatServer(false);
    server = chat.server;
    const started = performance.now();
    const { result, events } = await streamed(chat.url);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ stopReason: 'completed', output: 'Hi' });
    // The client gave the body up: the server sees the response closed before it finished.
    await vi.waitFor(() => expect(chat.closed).toEqual([false]));
    expect(validateTrace(events).problems).toEqual([]);
  });

  it('is read to its end when the server ends it, not cancelled (which would abort its fetch)', async () => {
    const chat = await chatServer(true);
    server = chat.server;
    let cancels = 0;
    // The body as the adapter gets it, pulled from the real one: a cancel reaches `cancel` here.
    const watching: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: reason => {
          cancels++;
          return reader.cancel(reason);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const sink = memorySink();
    const model = openai('gpt-4o-mini', { apiKey: 'k', baseURL: chat.url, fetch: watching });
    for (let call = 0; call < 3; call++) {
      const running = stream(agent({ name: 'a', model }), 'go', { trace: sink });
      for await (const part of running) void part;
      expect(await running.result).toMatchObject({ output: 'Hi' });
    }
    expect(cancels).toBe(0);
  });
});
