import { ModelCallError } from '../../errors/model-call-error.js';
import type { LanguageModel, ModelResponse } from '../../model/language-model.js';
import { backoffDelayMs } from '../../util/backoff.js';
import { sleepOn } from '../../util/clock.js';
import { nextTask } from '../../util/next-task.js';
import type { Chunk } from '../../protocol/chunk.js';
import { settleHolds } from '../seam/seam.js';
import type { RunState } from '../frame/run-state.js';
import { toTraceError } from '../frame/to-trace-error.js';
import type { ModelCallInput } from './model-call-input.js';
import type { ModelCallRequest } from '../seam/feature-hooks.js';
import { ModelAttempt } from './model-attempt.js';
import { SentProbe } from './sent-probe.js';

/**
 * Calls the agent's model for one step. Retryable failures (rate limits, timeouts, server errors,
 * a cut stream) are retried with exponential backoff and jitter, honouring `retry-after`, up to
 * `retry.modelAttempts`; then the fallback model, if any, gets the same. An open circuit breaker
 * (a feature holding the attempt) refuses the call at once (and moves on to the fallback). Every attempt is an `llm_start` /
 * `llm_end` pair, every retry and fallback a `retry` event.
 */
export async function* callModel(
  input: ModelCallInput,
  state: RunState,
): AsyncGenerator<Chunk, ModelResponse, undefined> {
  const { agent, agentSpan } = input;
  const { resilience } = agent;
  const own =
    agent.fallbackModel === undefined ? [agent.model] : [agent.model, agent.fallbackModel];
  const { hooks } = input;
  const probe = hooks.redirectsModels && state.tracer.recording ? new SentProbe() : undefined;
  const candidates = own.map(model => calledThrough(model, input, state, probe));
  let failure: ModelCallError | undefined;
  for (const [index, model] of candidates.entries()) {
    for (let attempt = 1; attempt <= resilience.modelAttempts; attempt++) {
      // What the features hold over the attempt (a rate limit's place, a circuit breaker).
      let holds =
        hooks.modelAttempts.length === 0
          ? undefined
          : hooks.holdModelAttempt(input.at.with({ model, request: sentOf(input) }));
      if (holds instanceof Promise) holds = await holds;
      try {
        // The attempt written out here, not as a generator of its own: each generator layer cost
        // every model call four promises, streamed or not.
        const call = new ModelAttempt(model, attempt, input, state, probe !== undefined);
        probe?.listen(call);
        let response: ModelResponse;
        try {
          const request = call.request(holds);
          const answer = state.streaming
            ? yield* call.streamed(request)
            : await call.generated(request);
          // Beside other parts, an answer goes on in a task of its own, as a provider's does.
          if (state.tracer.sideBySide) await nextTask();
          response = call.answered(answer);
        } catch (caught) {
          call.failed(caught);
          throw caught;
        } finally {
          probe?.listen(undefined);
          call.close();
        }
        settleHolds(holds, { response });
        return response;
      } catch (caught) {
        settleHolds(holds, { error: caught });
        if (!(caught instanceof ModelCallError)) throw caught;
        failure = caught;
        if (!caught.isRetryable || attempt === resilience.modelAttempts) break;
        const delayMs = backoffDelayMs(attempt, resilience, state.random, caught.retryAfterMs);
        state.tracer.point('retry', agentSpan, {
          target: 'model',
          name: model.modelId,
          attempt: attempt + 1,
          delay_ms: delayMs,
          error: toTraceError(caught),
        });
        await sleepOn(state.clock, delayMs, state.signal);
      }
    }
    const fallback = candidates[index + 1];
    const canFallBack =
      failure !== undefined && (failure.isRetryable || failure.kind === 'circuit_open');
    if (fallback === undefined || !canFallBack) break;
    state.tracer.point('retry', agentSpan, {
      target: 'model',
      name: model.modelId,
      attempt: 1,
      delay_ms: 0,
      error: toTraceError(failure),
      fallback: fallback.modelId,
    });
  }
  throw failure ?? new ModelCallError({ kind: 'unknown', message: 'Model call failed.' });
}

/**
 * The model a call goes to: the run's override's (a rerun's recorded answers) in place of the
 * agent's, then through the features that wrap models, so that a rerun runs today's wrappers
 * again over the recorded answers; with a probe under the wrappers when the run is traced.
 */
function calledThrough(
  own: LanguageModel,
  { agent, hooks }: ModelCallInput,
  state: RunState,
  probe: SentProbe | undefined,
): LanguageModel {
  const override = state.overrides.model;
  const model = override === undefined ? own : override(agent, own);
  if (!hooks.redirectsModels) return model;
  return hooks.model(agent, probe === undefined ? model : probe.wrap(model));
}

/** What a model call sends: the features' transformed request, or the loop's. */
function sentOf(input: ModelCallInput): ModelCallRequest {
  return (
    input.transformed ?? {
      instructions: input.instructions,
      messages: input.messages,
      tools: input.tools,
    }
  );
}
