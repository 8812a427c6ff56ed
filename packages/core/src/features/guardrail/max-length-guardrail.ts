import {
  estimateTokens,
  type Guardrail,
  type GuardrailAction,
} from '../../kernel/agent/guardrail.js';

/**
 * Refuses text longer than `maxTokens` (estimated at 4 characters a token).
 * @param action - @defaultValue 'block'
 */
export function maxLengthGuardrail({
  maxTokens,
  action = 'block',
}: {
  maxTokens: number;
  action?: GuardrailAction;
}): Guardrail {
  return {
    name: 'max_length',
    check: ({ stage, text }) => {
      const tokens = estimateTokens(text);
      if (tokens <= maxTokens) return { verdict: 'allow' };
      return {
        verdict: action,
        reason: `the ${stage} is about ${tokens} tokens long; the limit is ${maxTokens}`,
        details: { tokens, maxTokens },
      };
    },
  };
}
