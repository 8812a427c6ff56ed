import type { Usage } from '../protocol/usage.js';

/** Where a guardrail looks: the user's input, the final output, or a tool call before it runs. */
export type GuardrailStage = 'input' | 'output' | 'tool';

/** A guardrail's judgement: go on, go on but record a warning, or stop. */
export type GuardrailVerdict =
  | { readonly verdict: 'allow' }
  | {
      readonly verdict: 'warn' | 'block';
      readonly reason: string;
      readonly details?: unknown;
    };

/** What a guardrail checks. */
export interface GuardrailCheck {
  readonly stage: GuardrailStage;
  /** The input, the output, or the tool call's arguments as canonical JSON. */
  readonly text: string;
  readonly agentName: string;
  readonly session: string;
  /** For the tool stage: the tool and its parsed arguments. */
  readonly toolName?: string;
  readonly args?: unknown;
}

/**
 * A check on input, output or tool calls. A `block` on input stops the run (`guardrail_blocked`)
 * before the model is called; on output it withholds the answer and stops the run; on a tool call
 * it refuses the call and tells the LLM why. A `warn` is recorded and the run goes on. A guardrail
 * that throws blocks (it fails closed).
 */
export interface Guardrail {
  /** Shown in `guardrail` trace events, e.g. `max_length`. */
  readonly name: string;
  check(input: GuardrailCheck): GuardrailVerdict | Promise<GuardrailVerdict>;
  /** Told the usage of every model call of the runs it guards (for budgets such as TokenGuard). */
  recordUsage?(usage: Usage, context: { readonly session: string }): void;
}

/** What to do when a built-in guardrail's rule is broken. */
export type GuardrailAction = 'warn' | 'block';

/** Rough token count: about 4 characters a token, a character-based estimate that needs no tokenizer. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A guardrail verdict that was not `allow`. */
export interface GuardrailFinding {
  readonly guardrail: string;
  readonly stage: GuardrailCheck['stage'];
  readonly verdict: 'warn' | 'block';
  readonly reason: string;
  readonly details?: unknown;
}
