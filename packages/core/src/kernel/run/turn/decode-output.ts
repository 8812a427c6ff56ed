import type { z } from 'zod';
import type { ModelResponse } from '../../model/language-model.js';

/** A final answer decoded against the output schema, or why it could not be. */
export type DecodedOutput =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

/**
 * Decodes a final answer: the text as JSON (a surrounding ```json fence is tolerated), then
 * validated with the schema. Tool calls in the final-output phase are a failure too.
 */
export function decodeOutput(schema: z.ZodType, response: ModelResponse): DecodedOutput {
  if (response.toolCalls.length > 0) {
    return {
      ok: false,
      problem: 'tools are not available for the final answer, but the reply called a tool',
    };
  }
  const text = response.text.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `the reply is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const checked = schema.safeParse(value);
  if (checked.success) return { ok: true, value: checked.data };
  const issues = checked.error.issues
    .map(
      issue =>
        `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)'}: ${issue.message}`,
    )
    .join('; ');
  return { ok: false, problem: `the JSON does not match the schema: ${issues}` };
}

/** The message that asks for the final answer as JSON, in the final-output phase (tools off, schema on). */
export function finalOutputRequest(jsonSchema: Readonly<Record<string, unknown>>): string {
  return `Now give your final answer as a JSON object that matches this JSON Schema, with no other text:\n${JSON.stringify(jsonSchema)}`;
}

/** The message that asks again after a failed decode, saying what was wrong. */
export function decodeRetryRequest(problem: string): string {
  return `Your answer could not be used: ${problem}. Reply again with only a JSON object that matches the JSON Schema.`;
}
