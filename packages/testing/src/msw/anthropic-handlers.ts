import { http, HttpResponse, type HttpHandler } from 'msw';
import type { FakeLLMStep } from '../fake-llm-step.js';
import { ScriptPlayer } from '../script-player.js';
import { fromMessagesBody, messageEvents, messageObject } from './anthropic-wire.js';
import type { ProviderHandlerOptions } from './handler-options.js';
import { streamedAnswer } from './sse.js';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function anthropicError(
  status: number,
  message: string,
  retryAfterMs: number | undefined,
): HttpResponse<string> {
  const type =
    errorTypes[status] ??
    (status === 503 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error');
  return new HttpResponse(JSON.stringify({ type: 'error', error: { type, message } }), {
    status,
    headers: {
      'content-type': 'application/json',
      ...(retryAfterMs === undefined
        ? {}
        : {
            'retry-after-ms': String(retryAfterMs),
            'retry-after': String(Math.ceil(retryAfterMs / 1000)),
          }),
    },
  });
}

/**
 * msw handlers that answer Anthropic's Messages endpoint (`/v1/messages`) from a FakeLLM script, in
 * the real wire format: JSON, or SSE with `event:` lines when the request streams. Error steps
 * become HTTP errors with Anthropic's error body (503/529 `overloaded_error`) and `retry-after`; a
 * `throw` step a network error; `cutAfterDeltas` a stream that ends early.
 */
export function anthropicHandlers(
  script: readonly FakeLLMStep[],
  options: ProviderHandlerOptions = {},
): HttpHandler[] {
  const { baseURL = 'http://llm.test', split, onRequest } = options;
  const player = new ScriptPlayer(script);
  let count = 0;
  return [
    http.post(`${baseURL}/v1/messages`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      onRequest?.(body, 'v1/messages');
      const played = await player.next(fromMessagesBody(body));
      const model = typeof body.model === 'string' ? body.model : 'fake-model';
      const id = `msg_fake_${++count}`;
      switch (played.kind) {
        case 'throw':
          return HttpResponse.error();
        case 'error':
          return anthropicError(
            played.step.error.status,
            played.step.error.message ?? `Scripted HTTP ${played.step.error.status} error.`,
            played.step.error.retryAfterMs,
          );
        case 'exhausted':
          return anthropicError(
            400,
            `FakeLLM script exhausted: call ${played.index}, but the script has ${player.length} steps.`,
            undefined,
          );
        case 'answer':
          return body.stream === true
            ? streamedAnswer(
                messageEvents(played.response, played.step, model, id),
                played.step,
                split,
              )
            : HttpResponse.json(messageObject(played.response, model, id));
      }
    }),
  ];
}
