import type { ModelResponse } from '../model/language-model.js';
import type {
  TerminationContext,
  TerminationDecision,
  TerminationPolicy,
} from './termination-policy.js';

/** A decision to run tools, which a limit may turn into a stop. */
export type ToolsDecision = Extract<TerminationDecision, { kind: 'run_tools' }>;

/** The stop a limit gives, with the limit it names. */
export type LimitStop = Extract<TerminationDecision, { kind: 'stop' }>;

/**
 * Wraps a policy with one of the turn's own limits: when the decision would run tools, the limit
 * is asked and may stop the turn instead (naming itself in the stop's `limit`). Every limit the
 * kernel keeps is one of these; limits that need something from outside the turn (prices, rate
 * limits, a person) are features.
 */
export function limitPolicy(
  base: TerminationPolicy,
  stopFor: (
    decision: ToolsDecision,
    context: TerminationContext,
    response: ModelResponse,
  ) => LimitStop | undefined,
): TerminationPolicy {
  return {
    decide(response, context): TerminationDecision {
      const decision = base.decide(response, context);
      if (decision.kind !== 'run_tools') return decision;
      return stopFor(decision, context, response) ?? decision;
    },
  };
}
