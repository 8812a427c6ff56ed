import { http, HttpResponse, type HttpHandler } from 'msw';
import type { FakeLLMStep } from '../fake-llm-step.js';
import { ScriptPlayer } from '../script-player.js';
import type { ProviderHandlerOptions } from './handler-options.js';
import { chatChunks, chatCompletion, fromChatBody } from './openai-chat-wire.js';
import {
  fromResponsesBody,
  responsesEvents,
  responsesObject,
  type ResponsesEcho,
} from './openai-responses-wire.js';
import { streamedAnswer } from './sse.js';

function openaiError(
  status: number,
  message: string,
  retryAfterMs: number | undefined,
): HttpResponse<string> {
  const type =
    status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return new HttpResponse(JSON.stringify({ error: { message, type, param: null, code: null } }), {
    status,
    headers: {
      'content-type': 'application/json',
      ...(retryAfterMs === undefined ? {} : { 'retry-after-ms': String(retryAfterMs) }),
    },
  });
}

/** What a Responses API answer echoes of its request. */
function echoOf(body: Record<string, unknown>): ResponsesEcho {
  return { instructions: body.instructions ?? null, tools: body.tools ?? [] };
}

/**
 * msw handlers that answer OpenAI's Chat Completions (`/chat/completions`) and Responses
 * (`/responses`) endpoints from a FakeLLM script, in the real wire format: JSON, or SSE when the
 * request streams. Error steps become HTTP errors with the provider's error body and
 * `retry-after-ms`; a `throw` step a network error; `cutAfterDeltas` a stream that ends early. The
 * same script drives `fakeLLM` in memory.
 *
 * @example
 * ```ts
 * const server = setupServer(...openaiHandlers([{ text: 'Hello' }]));
 * server.listen({ onUnhandledRequest: 'error' });
 * const model = openai('gpt-4o-mini', { apiKey: 'test', baseURL: 'http://llm.test/v1' });
 * ```
 */
export function openaiHandlers(
  script: readonly FakeLLMStep[],
  options: ProviderHandlerOptions = {},
): HttpHandler[] {
  const { baseURL = 'http://llm.test/v1', split, onRequest } = options;
  const player = new ScriptPlayer(script);
  let responses = 0;
  const answer = async (
    path: string,
    body: Record<string, unknown>,
    toRequest: typeof fromChatBody | typeof fromResponsesBody,
  ) => {
    onRequest?.(body, path);
    const played = await player.next(toRequest(body));
    const model = typeof body.model === 'string' ? body.model : 'fake-model';
    const id = `fake_${++responses}`;
    switch (played.kind) {
      case 'throw':
        return HttpResponse.error();
      case 'error':
        return openaiError(
          played.step.error.status,
          played.step.error.message ?? `Scripted HTTP ${played.step.error.status} error.`,
          played.step.error.retryAfterMs,
        );
      case 'exhausted':
        return openaiError(
          400,
          `FakeLLM script exhausted: call ${played.index}, but the script has ${player.length} steps.`,
          undefined,
        );
      case 'answer':
        if (path === 'responses') {
          return body.stream === true
            ? streamedAnswer(
                responsesEvents(played.response, played.step, model, id, echoOf(body)),
                played.step,
                split,
              )
            : HttpResponse.json(
                responsesObject(played.response, model, id, 'completed', echoOf(body)),
              );
        }
        return body.stream === true
          ? streamedAnswer(chatChunks(played.response, played.step, model, id), played.step, split)
          : HttpResponse.json(chatCompletion(played.response, model, id));
    }
  };
  return [
    http.post(`${baseURL}/chat/completions`, async ({ request }) =>
      answer('chat/completions', (await request.json()) as Record<string, unknown>, fromChatBody),
    ),
    http.post(`${baseURL}/responses`, async ({ request }) =>
      answer('responses', (await request.json()) as Record<string, unknown>, fromResponsesBody),
    ),
  ];
}
