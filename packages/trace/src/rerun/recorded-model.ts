import {
  ModelCallError,
  modelCallErrorKinds,
  type FinishReason,
  type LanguageModel,
  type ModelCallErrorKind,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
} from '@agent-trace/core';
import { partsOfResponse } from '@agent-trace/core/record';
import { defined } from '@agent-trace/core/util';
import type { RecordedCall, Recording } from './recording.js';

/** What a model call's failure is when the model says so (`ModelCallError`'s kinds). */
const modelKinds: ReadonlySet<string> = new Set(modelCallErrorKinds);

function answerOf(recorded: RecordedCall): ModelResponse {
  const { end } = recorded;
  if (end.error !== undefined && !modelKinds.has(end.error.type)) {
    // Not a model's failure (a cache without the answer, a wrapper's own error): thrown again as
    // what it was, so what decides on model failures (a breaker, a fallback) decides as it did.
    const error = new Error(end.error.message);
    error.name = end.error.type;
    throw error;
  }
  if (end.error !== undefined) {
    throw new ModelCallError({
      // Retried, or not, as its kind says, as it was.
      kind: end.error.type as ModelCallErrorKind,
      message: end.error.message,
      ...defined('status', end.error.status),
    });
  }
  return {
    text: end.text ?? '',
    toolCalls: (end.tool_calls ?? []).map(call => ({
      callId: call.call_id,
      toolName: call.tool,
      argumentsText: call.arguments,
    })),
    ...(end.reasoning === undefined ? {} : { reasoning: end.reasoning.map(part => ({ ...part })) }),
    finishReason: (end.finish_reason ?? 'stop') as FinishReason,
    usage: {
      promptTokens: end.tok_prompt,
      completionTokens: end.tok_completion,
      ...defined('cacheReadTokens', end.tok_cache_read),
      ...defined('cacheWriteTokens', end.tok_cache_write),
      ...defined('reasoningTokens', end.tok_reasoning),
    },
    // An answer the recorded run took from a cache cost nothing then, and costs nothing now.
    ...(end.cache_hit === true ? { cacheHit: true as const } : {}),
  };
}

/**
 * A model that answers an agent's calls from the recording, in order: the recorded text and tool
 * calls, and recorded failures again (so retries happen again). A call the recording does not have
 * fails, not retryably. It keeps the identity of the model it stands in for (`model`: today's
 * code, or by default what the recording names), its id, provider and settings, so a changed
 * model shows as a divergence.
 */
export function recordedModel(
  agent: string,
  recording: Recording,
  model: Pick<LanguageModel, 'provider' | 'modelId' | 'settings'> = recording.identityOf(agent),
): LanguageModel {
  // The answer comes at the time it came in the recording, on the rerun's clock.
  const take = (request: ModelRequest): Promise<ModelResponse> => {
    const recorded = recording.nextCall(agent, request);
    if (recorded === undefined) return beyond(agent, recording);
    const waiting = recording.inTime(recorded.end);
    return (waiting ?? Promise.resolve()).then(() => {
      const stopped = recording.stop.cut(recorded.end);
      if (stopped !== undefined) return stopped.then(error => Promise.reject(error));
      return answerOf(recorded);
    });
  };
  return {
    specificationVersion: 'v1',
    provider: model.provider,
    modelId: model.modelId,
    ...defined('settings', model.settings),
    generate: take,
    stream: request => stream(() => take(request)),
  };
}

/** A call the recording does not have: a stop replayed there, or a failure (not retried). */
async function beyond(agent: string, recording: Recording): Promise<never> {
  const stopped = recording.stop.beyond();
  if (stopped !== undefined) throw await stopped;
  throw new ModelCallError({
    kind: 'script_exhausted',
    isRetryable: false,
    message: `Replay: agent '${agent}' made a model call the recording does not have.`,
  });
}

async function* stream(
  answer: () => Promise<ModelResponse>,
): AsyncGenerator<ModelStreamPart, void, undefined> {
  yield* partsOfResponse(await answer());
}
