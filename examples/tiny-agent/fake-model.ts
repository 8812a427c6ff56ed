/**
 * The Tiny Agent's offline model (`--fake`): it answers like a small assistant, calling the math
 * server for "a + b" or "a * b" questions and streaming its answers a word at a time, slowly
 * enough for a person to read them (and to press Ctrl-C in the middle).
 */
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '@agent-trace/core';

const wordDelayMs = 40;

/** What the fake assistant says next, from the conversation so far. */
function answer(request: ModelRequest): ModelResponse {
  const last = request.messages.at(-1);
  const usage = { promptTokens: request.messages.length * 10, completionTokens: 8 };
  if (last?.role === 'tool')
    return { text: `The answer is ${last.content}.`, toolCalls: [], finishReason: 'stop', usage };
  const question = last?.role === 'user' ? last.content : '';
  const sum = /(-?\d+(?:\.\d+)?)\s*([+*x×])\s*(-?\d+(?:\.\d+)?)/.exec(question);
  if (sum !== null) {
    const tool = sum[2] === '+' ? 'add' : 'multiply';
    const args = JSON.stringify({ a: Number(sum[1]), b: Number(sum[3]) });
    return {
      text: '',
      toolCalls: [
        { callId: `call_${request.messages.length}`, toolName: tool, argumentsText: args },
      ],
      finishReason: 'tool_calls',
      usage,
    };
  }
  const text =
    'I am the Tiny Agent running offline. Ask me to add or multiply two numbers, like "what is 12 * 7?", ' +
    'and I will call the math server over MCP. Everything I do is traced to JSONL, ' +
    'so you can replay this conversation later with agent-trace replay.';
  return { text, toolCalls: [], finishReason: 'stop', usage };
}

const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>(resolve => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

/** The offline model. */
export function fakeTinyModel(): LanguageModel {
  return {
    specificationVersion: 'v1',
    provider: 'fake',
    modelId: 'tiny-fake',
    generate: request => Promise.resolve(answer(request)),
    async *stream(request): AsyncGenerator<ModelStreamPart, void, undefined> {
      const response = answer(request);
      for (const word of response.text.split(/(?<= )/)) {
        if (request.abortSignal?.aborted === true) return;
        await pause(wordDelayMs, request.abortSignal);
        yield { type: 'text-delta', text: word };
      }
      for (const call of response.toolCalls) {
        yield { type: 'tool-call-start', callId: call.callId, toolName: call.toolName };
        yield { type: 'tool-call-delta', callId: call.callId, argumentsDelta: call.argumentsText };
        yield { type: 'tool-call-end', callId: call.callId };
      }
      yield { type: 'finish', finishReason: response.finishReason, usage: response.usage };
    },
  };
}
