import type OpenAI from 'openai';
import type { FinishReason } from '../../../kernel/protocol/finish-reason.js';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../../../kernel/model/language-model.js';
import { IncrementalConverter } from '../incremental-conversion.js';
import { modelSettings } from '../model-settings.js';
import { ModelCallError } from '../../../kernel/errors/model-call-error.js';
import { toModelCallError } from '../provider-error.js';
import { readSseJson, saysUsedUpQuota } from '../sse-json.js';
import { appendResponsesItems, toResponsesTools } from './convert-to-openai-responses.js';
import { lazyOpenAIClient } from './openai-client.js';
import { jsonSchemaFormat, samplingParams } from './openai-request.js';
import { openaiUsage } from './openai-usage.js';
import { readResponsesOutput, reasoningItemStreamParts } from './read-responses-output.js';
import type { OpenAIModelOptions } from './openai-options.js';
import { defined } from '../../../kernel/util/defined.js';
import { serverOf } from '../server-of.js';
import { openaiBaseURL } from './openai-chat-model.js';

type ResponseParams = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>;

function finishReasonOf(
  response: Pick<OpenAI.Responses.Response, 'status' | 'incomplete_details'>,
  hasToolCalls: boolean,
): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  if (response.status === 'incomplete') {
    return response.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  }
  return response.status === 'completed' ? 'stop' : 'other';
}

/** A model served by OpenAI's Responses API through the official `openai` client. */
export function openaiResponsesModel(
  modelId: string,
  options: OpenAIModelOptions = {},
): LanguageModel {
  const client = lazyOpenAIClient(options, 'openai.responses');
  const converter = new IncrementalConverter<OpenAI.Responses.ResponseInputItem>(
    appendResponsesItems,
  );

  /** The Responses API takes no stop sequences: `request.stopSequences` is not sent. */
  function params(request: ModelRequest): ResponseParams {
    return {
      model: modelId,
      input: converter.convert(request.messages),
      store: false,
      ...(request.instructions === '' ? {} : { instructions: request.instructions }),
      ...(request.tools.length === 0 ? {} : { tools: toResponsesTools(request.tools) }),
      ...(request.responseFormat === undefined
        ? {}
        : {
            text: { format: { type: 'json_schema', ...jsonSchemaFormat(request.responseFormat) } },
          }),
      ...samplingParams(options, 'max_output_tokens'),
      ...(options.reasoning === undefined
        ? {}
        : {
            reasoning: {
              ...defined('effort', options.reasoning.effort),
              ...defined('summary', options.reasoning.summary),
            },
            include: ['reasoning.encrypted_content'],
          }),
    };
  }

  return {
    specificationVersion: 'v1',
    provider: 'openai.responses',
    modelId,
    settings: modelSettings(options, {
      reasoningEffort: options.reasoning?.effort,
      reasoningSummary: options.reasoning?.summary,
    }),
    ...defined('server', serverOf(options.client?.baseURL ?? options.baseURL, openaiBaseURL)),
    async generate(request): Promise<ModelResponse> {
      try {
        const response = await client().responses.create(
          { ...params(request), stream: false },
          defined('signal', request.abortSignal),
        );
        const { text, refused, toolCalls, reasoning } = readResponsesOutput(response.output);
        return {
          text,
          toolCalls,
          ...(reasoning.length === 0 ? {} : { reasoning }),
          finishReason: refused ? 'content_filter' : finishReasonOf(response, toolCalls.length > 0),
          usage: openaiUsage(response.usage),
          ...defined('responseId', response.id || undefined),
          ...defined('responseModel', response.model || undefined),
        };
      } catch (error) {
        throw toModelCallError(error, 'OpenAI');
      }
    },
    stream: request => streamResponses(client, params(request), request.abortSignal),
  };
}

async function* streamResponses(
  client: () => OpenAI,
  params: ResponseParams,
  abortSignal: AbortSignal | undefined,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  const callIdByItem = new Map<string, string>();
  let refused = false;
  let finish:
    | {
        finishReason: FinishReason;
        usage: { promptTokens: number; completionTokens: number };
        responseId?: string;
        responseModel?: string;
      }
    | undefined;
  try {
    const response = await client()
      .responses.create({ ...params, stream: true }, defined('signal', abortSignal))
      .asResponse();
    for await (const { data } of readSseJson(response, 'OpenAI')) {
      const event = data as OpenAI.Responses.ResponseStreamEvent;
      switch (event.type) {
        case 'response.output_text.delta':
          if (event.delta !== '') yield { type: 'text-delta', text: event.delta };
          break;
        case 'response.refusal.delta':
          refused = true;
          if (event.delta !== '') yield { type: 'text-delta', text: event.delta };
          break;
        case 'response.output_item.done':
          if (event.item.type === 'reasoning') yield* reasoningItemStreamParts(event.item);
          break;
        case 'response.output_item.added':
          if (event.item.type === 'function_call') {
            callIdByItem.set(event.item.id ?? event.item.call_id, event.item.call_id);
            yield {
              type: 'tool-call-start',
              callId: event.item.call_id,
              toolName: event.item.name,
            };
          }
          break;
        case 'response.function_call_arguments.delta': {
          const callId = callIdByItem.get(event.item_id) ?? event.item_id;
          if (event.delta !== '')
            yield { type: 'tool-call-delta', callId, argumentsDelta: event.delta };
          break;
        }
        case 'response.completed':
        case 'response.incomplete':
          finish = {
            finishReason: refused
              ? 'content_filter'
              : finishReasonOf(event.response, callIdByItem.size > 0),
            usage: openaiUsage(event.response.usage),
            ...defined('responseId', event.response.id || undefined),
            ...defined('responseModel', event.response.model || undefined),
          };
          break;
        case 'response.failed':
        case 'error':
          // A failure inside the stream has no status: a server failure, worth trying again,
          // unless it says the quota is used up.
          throw new ModelCallError({
            kind: saysUsedUpQuota(event.type === 'error' ? event : event.response.error)
              ? 'quota_exceeded'
              : 'server',
            message: `OpenAI failed mid-stream: ${event.type === 'error' ? event.message : (event.response.error?.message ?? 'response failed')}`,
          });
        default:
          break;
      }
    }
  } catch (error) {
    throw toModelCallError(error, 'OpenAI');
  }
  if (finish === undefined) return;
  for (const callId of callIdByItem.values()) yield { type: 'tool-call-end', callId };
  yield { type: 'finish', ...finish };
}
