import type { z } from 'zod';
import type { Guardrail, GuardrailAction } from '../../kernel/agent/guardrail.js';

/**
 * Refuses what does not match a zod schema: for input and output, the text parsed as JSON; for a
 * tool call, its arguments.
 * @param action - @defaultValue 'block'
 */
export function schemaGuardrail(
  schema: z.ZodType,
  { action = 'block' }: { action?: GuardrailAction } = {},
): Guardrail {
  return {
    name: 'schema',
    check: ({ stage, text, args }) => {
      let value: unknown = args;
      if (stage !== 'tool') {
        try {
          value = JSON.parse(text);
        } catch {
          return { verdict: action, reason: `the ${stage} is not JSON` };
        }
      }
      const checked = schema.safeParse(value);
      if (checked.success) return { verdict: 'allow' };
      const issues = checked.error.issues.map(
        issue => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
      return {
        verdict: action,
        reason: `the ${stage} does not match the schema: ${issues.join('; ')}`,
        details: { issues },
      };
    },
  };
}
