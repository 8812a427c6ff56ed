/**
 * A Chat Completions server on 127.0.0.1 for the wire-level bench, in a process of its own (so its
 * work is not in any framework's measurement). It answers the shared scenario without keeping
 * state: the model name says how many steps the run has (`bench-<N>`), the number of tool messages
 * in the request says which step this is. Steps before the last ask for `add`; the last answers
 * "done". Streaming requests get the answer as chunks, in the same wire format the testing
 * package's OpenAI handlers send. Prints `{"url": …}` once listening.
 * Usage: node chat-server.mjs
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ModelResponse } from '@agent-trace/core';
import { chatChunks, chatCompletion } from '../../packages/testing/src/msw/openai-chat-wire.js';
import { encodeSse } from '../../packages/testing/src/msw/sse.js';
import { addArguments } from '../scenario.js';

const toolMessage = /"role"\s*:\s*"tool"/g;

/** The scripted answer to a request of a run of `steps` that has seen `toolResults` results. */
function answer(steps: number, toolResults: number): ModelResponse {
  const usage = { promptTokens: 10, completionTokens: 5 };
  if (toolResults >= steps - 1) return { text: 'done', toolCalls: [], finishReason: 'stop', usage };
  return {
    text: '',
    toolCalls: [
      {
        callId: `call_${toolResults}`,
        toolName: 'add',
        argumentsText: JSON.stringify(addArguments(toolResults)),
      },
    ],
    finishReason: 'tool_calls',
    usage,
  };
}

function respond(body: string, response: ServerResponse): void {
  const model = /"model"\s*:\s*"bench-(\d+)"/.exec(body);
  if (model === null) {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'model must be bench-<steps>' } }));
    return;
  }
  const steps = Number(model[1]);
  const toolResults = body.match(toolMessage)?.length ?? 0;
  const reply = answer(steps, toolResults);
  const id = `chatcmpl-${toolResults}`;
  if (/"stream"\s*:\s*true/.test(body)) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.end(encodeSse(chatChunks(reply, {}, `bench-${steps}`, id)));
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(chatCompletion(reply, `bench-${steps}`, id)));
}

const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => respond(Buffer.concat(parts).toString('utf8'), response));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}/v1` })}\n`);
});
