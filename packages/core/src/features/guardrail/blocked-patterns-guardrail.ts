import type { Guardrail, GuardrailAction } from '../../kernel/agent/guardrail.js';

/**
 * Refuses text that matches any of `patterns` (e.g. secrets, banned phrases).
 * @param action - @defaultValue 'block'
 */
export function blockedPatternsGuardrail(
  patterns: readonly RegExp[],
  { action = 'block' }: { action?: GuardrailAction } = {},
): Guardrail {
  return {
    name: 'blocked_patterns',
    check: ({ stage, text }) => {
      for (const pattern of patterns) {
        pattern.lastIndex = 0;
        if (pattern.test(text)) {
          return {
            verdict: action,
            reason: `the ${stage} matches the blocked pattern ${String(pattern)}`,
            details: { pattern: String(pattern) },
          };
        }
      }
      return { verdict: 'allow' };
    },
  };
}
