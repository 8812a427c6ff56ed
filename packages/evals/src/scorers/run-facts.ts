import type { StopReason } from '@agent-trace/core';
import { runTotals } from '@agent-trace/trace/model';
import type { Scorer, ScorerInput } from '../scorer.js';

/** A scorer of one fact of the run: 1 when `holds`, with a reason either way. */
function fact(
  name: string,
  check: (input: ScorerInput) => { readonly holds: boolean; readonly reason: string },
): Scorer {
  return {
    name,
    score(input) {
      const { holds, reason } = check(input);
      return { score: holds ? 1 : 0, reason };
    },
  };
}

/**
 * 1 when the run stopped for `reason` (by default `completed`): as the task's result says (an
 * agent-trace run's), else as its trace's seal says (a bridged agent's, whose task returns the
 * framework's own result).
 */
export function stopReasonIs(reason: StopReason = 'completed'): Scorer {
  return fact('stop_reason', ({ result, trace }) => {
    const sealed = trace.findLast(event => event.event === 'run_end');
    const actual =
      result?.stopReason ?? (sealed?.event === 'run_end' ? sealed.stop_reason : 'no run');
    return { holds: actual === reason, reason: `the run stopped: ${actual}` };
  });
}

/** 1 when the run made at most `limit` model calls. */
export function stepsAtMost(limit: number): Scorer {
  return fact('steps', ({ trace }) => {
    const { llmCalls } = runTotals(trace);
    return { holds: llmCalls <= limit, reason: `${llmCalls} model calls; ${limit} allowed` };
  });
}

/** 1 when no model call, tool call or handoff of the run failed. */
export function noErrors(): Scorer {
  return fact('errors', ({ trace }) => {
    const { errors } = runTotals(trace);
    return { holds: errors === 0, reason: errors === 0 ? 'no errors' : `${errors} failed calls` };
  });
}

/** 1 when the run's tokens (in and out) stay within `limit`. */
export function tokensAtMost(limit: number): Scorer {
  return fact('tokens', ({ trace }) => {
    const { tokensIn, tokensOut } = runTotals(trace);
    const used = tokensIn + tokensOut;
    return { holds: used <= limit, reason: `${used} tokens; ${limit} allowed` };
  });
}

/** 1 when the run cost at most `limitUsd`; a run with unpriced calls has an unknown cost and fails. */
export function costAtMost(limitUsd: number): Scorer {
  return fact('cost', ({ trace }) => {
    const { costUsd, unpricedCalls } = runTotals(trace);
    if (unpricedCalls > 0)
      return {
        holds: false,
        reason: `${unpricedCalls} calls of models with no price: the cost is unknown`,
      };
    return { holds: costUsd <= limitUsd, reason: `$${costUsd}; $${limitUsd} allowed` };
  });
}

/** 1 when the case's run took at most `limitMs` milliseconds. */
export function latencyAtMost(limitMs: number): Scorer {
  return fact('latency', ({ durationMs }) => ({
    holds: durationMs <= limitMs,
    reason: `${Math.round(durationMs)} ms; ${limitMs} allowed`,
  }));
}
