import type { Message, ModelRequest, ModelResponse, ToolDefinition } from '@agent-trace/core';
import type { FakeAnswerStep } from '../fake-llm-step.js';
import { splitText } from '../script-player.js';
import type { SseFrame } from './sse.js';
import { defined } from '@agent-trace/core/util';

const finish: Record<ModelResponse['finishReason'], string> = {
  stop: 'stop',
  tool_calls: 'tool_calls',
  length: 'length',
  content_filter: 'content_filter',
  other: 'stop',
};

interface ChatBody {
  model?: string;
  stop?: string | string[];
  messages?: {
    role: string;
    content?: unknown;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    tool_call_id?: string;
  }[];
  tools?: {
    function: { name: string; description?: string; parameters?: Record<string, unknown> };
  }[];
}

/** The request a Chat Completions body stands for, for responders and usage estimates. */
export function fromChatBody(body: ChatBody): ModelRequest {
  const messages: Message[] = [];
  const toolNames = new Map<string, string>();
  let instructions = '';
  for (const message of body.messages ?? []) {
    const text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'system' || message.role === 'developer') instructions = text;
    else if (message.role === 'user') messages.push({ role: 'user', content: text });
    else if (message.role === 'assistant') {
      const toolCalls = (message.tool_calls ?? []).map(call => {
        toolNames.set(call.id, call.function.name);
        return {
          callId: call.id,
          toolName: call.function.name,
          argumentsText: call.function.arguments,
        };
      });
      messages.push({ role: 'assistant', content: text, toolCalls });
    } else if (message.role === 'tool') {
      const callId = message.tool_call_id ?? '';
      messages.push({
        role: 'tool',
        callId,
        toolName: toolNames.get(callId) ?? '',
        content: text,
        isError: false,
      });
    }
  }
  const tools: ToolDefinition[] = (body.tools ?? []).map(tool => ({
    name: tool.function.name,
    description: tool.function.description ?? '',
    inputSchema: tool.function.parameters ?? {},
  }));
  const stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  return {
    instructions,
    messages,
    tools,
    agentName: 'http',
    ...defined('stopSequences', stop),
  };
}

/** A Chat Completions JSON response. */
export function chatCompletion(
  response: ModelResponse,
  model: string,
  id: string,
): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: response.text === '' ? null : response.text,
          refusal: null,
          ...(response.toolCalls.length === 0
            ? {}
            : {
                tool_calls: response.toolCalls.map(call => ({
                  id: call.callId,
                  type: 'function',
                  function: { name: call.toolName, arguments: call.argumentsText },
                })),
              }),
        },
        logprobs: null,
        finish_reason: finish[response.finishReason],
      },
    ],
    usage: {
      prompt_tokens: response.usage.promptTokens,
      completion_tokens: response.usage.completionTokens,
      total_tokens: response.usage.promptTokens + response.usage.completionTokens,
      prompt_tokens_details: { cached_tokens: response.usage.cacheReadTokens ?? 0 },
      completion_tokens_details: { reasoning_tokens: response.usage.reasoningTokens ?? 0 },
    },
  };
}

/**
 * The stream of a Chat Completions answer, in the wire format of the fixtures: a role chunk, text
 * deltas, each tool call's id and name then its arguments in fragments keyed by `index`, the finish
 * chunk, the usage chunk (`include_usage`), `[DONE]`. A `cutAfterDeltas` step stops after that many
 * text deltas, with no finish and no `[DONE]`.
 */
export function chatChunks(
  response: ModelResponse,
  step: FakeAnswerStep,
  model: string,
  id: string,
): SseFrame[] {
  const chunk = (delta: unknown, finishReason: string | null = null) => ({
    data: {
      id,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    },
  });
  const frames: SseFrame[] = [chunk({ role: 'assistant', content: '' })];
  const pieces = splitText(response.text, step.deltas);
  for (const [index, piece] of pieces.entries()) {
    if (step.cutAfterDeltas !== undefined && index === step.cutAfterDeltas) return frames;
    frames.push(chunk({ content: piece }));
  }
  if (step.cutAfterDeltas !== undefined) return frames;
  response.toolCalls.forEach((call, index) => {
    frames.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.callId,
            type: 'function',
            function: { name: call.toolName, arguments: '' },
          },
        ],
      }),
    );
    const middle = Math.ceil(call.argumentsText.length / 2);
    for (const fragment of [
      call.argumentsText.slice(0, middle),
      call.argumentsText.slice(middle),
    ]) {
      if (fragment !== '')
        frames.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  frames.push(chunk({}, finish[response.finishReason]));
  frames.push({
    data: {
      id,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      choices: [],
      usage: {
        prompt_tokens: response.usage.promptTokens,
        completion_tokens: response.usage.completionTokens,
        total_tokens: response.usage.promptTokens + response.usage.completionTokens,
        prompt_tokens_details: { cached_tokens: response.usage.cacheReadTokens ?? 0 },
        completion_tokens_details: { reasoning_tokens: response.usage.reasoningTokens ?? 0 },
      },
    },
  });
  frames.push('[DONE]');
  return frames;
}
