import type { z } from 'zod';
import type { ModelResponse } from '../../model/language-model.js';
import type { ToolCallRequest } from '../../protocol/message.js';
import type { PendingApproval } from '../../protocol/approval.js';
import type { StepResult, ToolCallRecord } from '../../protocol/records.js';
import type { StopLimit, StopReason } from '../../protocol/stop-reason.js';
import type { Usage } from '../../protocol/usage.js';
import type { StopCondition } from '../../termination/stop-condition.js';
import type {
  TerminationContext,
  TerminationPolicy,
} from '../../termination/termination-policy.js';
import { decodeOutput } from './decode-output.js';

/** A stop, with why: the reason, a sentence for people, and the limit that stopped it. */
export interface Stop {
  readonly kind: 'stop';
  readonly reason: StopReason;
  readonly detail: string;
  readonly limit?: StopLimit;
}

/**
 * What the loop does after a model response. Every way an agent's turn goes on or ends after a
 * model call is one of these; the effects (tools, handoffs, guardrails, tracing, chunks) carry
 * them out.
 */
export type NextStep =
  /** The answer: the text, and for an agent with an output schema the decoded value. */
  | {
      readonly kind: 'final_output';
      readonly text: string;
      readonly decoded?: { readonly value: unknown };
    }
  /** The LLM ended its tool-use phase; ask for the structured answer (tools off, schema on). */
  | { readonly kind: 'ask_final_output' }
  /** The structured answer did not decode: tell the LLM what was wrong and ask again. */
  | { readonly kind: 'retry_decode'; readonly problem: string }
  /** In ReAct mode, the answer was not a ReAct step: tell the LLM what was wrong (`message`). */
  | { readonly kind: 'retry_malformed'; readonly message: string }
  | ToolStep
  /**
   * Pause: the run waits for something outside it: the termination policy said so, or calls of
   * the step need a person's approval (`approvals`: they and the step they belong to).
   */
  | {
      readonly kind: 'interrupt';
      readonly reason: string;
      readonly approvals?: {
        readonly pending: readonly PendingApproval[];
        readonly step: ToolStep;
      };
    }
  | Stop;

/** Run these tools, then take the first handoff asked for (the others are answered "ignored"). */
export interface ToolStep {
  readonly kind: 'run_tools';
  readonly toolCalls: readonly ToolCallRequest[];
  readonly handoff:
    { readonly call: ToolCallRequest; readonly ignored: readonly ToolCallRequest[] } | undefined;
  /** Every call of the response, handoffs included, for the limits' ledger. */
  readonly asked: readonly ToolCallRequest[];
}

/** A pause of the turn: the run waits for something outside it. */
export type Interrupt = Extract<NextStep, { readonly kind: 'interrupt' }>;

/**
 * A feature's say on a step that would run tools: a stop, a pause, or nothing. A pure function of
 * the step: the feature works out what it needs before the decision.
 */
export interface ToolCheck {
  /**
   * `asked`: checked before the loop's own checks, whatever the calls; `running`: checked last, on
   * the step as it would run (handoffs split off).
   */
  readonly on: 'asked' | 'running';
  readonly check: (step: ToolStep) => Stop | Interrupt | undefined;
}

/** What {@link decideNextStep} decides from: the response and the agent's turn so far. */
export interface DecisionInput {
  readonly response: ModelResponse;
  /** In the final-output phase the response must be the structured answer. */
  readonly finalPhase: boolean;
  readonly schema: z.ZodType | undefined;
  /** Decode retries used so far, and allowed. */
  readonly decodeRetries: number;
  readonly maxDecodeRetries: number;
  readonly policy: TerminationPolicy;
  readonly context: TerminationContext;
  /** Tools declared unavailable: asking for one again ends the turn degraded. */
  readonly unavailableTools: ReadonlySet<string>;
  /** The tool names that are handoffs (`transfer_to_…`). */
  readonly handoffTools: ReadonlySet<string>;
  /** In ReAct mode, set when the answer was not a ReAct step: what the LLM is told. */
  readonly malformed?: { readonly message: string };
  /**
   * The features' checks of the tools the response asks for (a cost limit spent, calls that need
   * a person's approval); the first that answers decides.
   */
  readonly checks?: readonly ToolCheck[];
  /** Malformed answers of the turn, this one included, and how many are allowed. */
  readonly malformedAnswers: number;
  readonly maxMalformedAnswers: number;
}

/**
 * Decides the next step from a model response: a pure function of the response and the turn's
 * state (the termination policy is consulted, and decides from its context alone). The table of
 * its cases is in `next-step.test.ts`.
 */
export function decideNextStep(input: DecisionInput): NextStep {
  if (input.finalPhase && input.schema !== undefined) return decideFinalAnswer(input);
  if (input.malformed !== undefined) return decideMalformed(input.malformed.message, input);
  const decision = input.policy.decide(input.response, input.context);
  switch (decision.kind) {
    case 'finish':
      return input.schema === undefined
        ? { kind: 'final_output', text: decision.output }
        : { kind: 'ask_final_output' };
    case 'stop':
      return {
        kind: 'stop',
        reason: decision.reason,
        detail: decision.detail,
        ...(decision.limit === undefined ? {} : { limit: decision.limit }),
      };
    case 'interrupt':
      return { kind: 'interrupt', reason: decision.reason };
    case 'run_tools':
      return decideTools(decision.toolCalls, input);
  }
}

function decideFinalAnswer(input: DecisionInput): NextStep {
  const decoded = decodeOutput(input.schema as z.ZodType, input.response);
  if (decoded.ok)
    return { kind: 'final_output', text: input.response.text, decoded: { value: decoded.value } };
  if (input.decodeRetries < input.maxDecodeRetries)
    return { kind: 'retry_decode', problem: decoded.problem };
  return {
    kind: 'stop',
    reason: 'output_decoding_failed',
    limit: { name: 'maxDecodeRetries', value: input.maxDecodeRetries },
    detail: `the final answer did not decode after ${input.decodeRetries + 1} tries: ${decoded.problem}`,
  };
}

function decideMalformed(message: string, input: DecisionInput): NextStep {
  if (input.malformedAnswers <= input.maxMalformedAnswers)
    return { kind: 'retry_malformed', message };
  return {
    kind: 'stop',
    reason: 'malformed_answer_limit',
    limit: { name: 'maxMalformedAnswers', value: input.maxMalformedAnswers },
    detail: `the LLM gave ${input.malformedAnswers} answers that were not ReAct steps; ${input.maxMalformedAnswers} allowed. The last: ${message}`,
  };
}

function decideTools(asked: readonly ToolCallRequest[], input: DecisionInput): NextStep {
  const handoffs = asked.filter(call => input.handoffTools.has(call.toolName));
  const [taken, ...ignored] = handoffs;
  const step: ToolStep = {
    kind: 'run_tools',
    toolCalls: asked.filter(call => !handoffs.includes(call)),
    handoff: taken === undefined ? undefined : { call: taken, ignored },
    asked,
  };
  const checks = input.checks ?? [];
  const first = checked(checks, 'asked', step);
  if (first !== undefined) return first;
  const refused = asked.find(call => input.unavailableTools.has(call.toolName));
  if (refused !== undefined) {
    return {
      kind: 'stop',
      reason: 'tool_failure_degraded',
      detail: `the LLM asked for tool '${refused.toolName}' again after it was declared unavailable, instead of answering without it`,
    };
  }
  return checked(checks, 'running', step) ?? step;
}

/** The first answer of the checks made at `on`. */
function checked(
  checks: readonly ToolCheck[],
  on: ToolCheck['on'],
  step: ToolStep,
): Stop | Interrupt | undefined {
  for (const check of checks) {
    if (check.on !== on) continue;
    const answer = check.check(step);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

/** Before a model call: the stop when the agent has used its model calls. */
export function stepLimitStop(steps: number, maxSteps: number): Stop | undefined {
  if (steps < maxSteps) return undefined;
  return {
    kind: 'stop',
    reason: 'max_steps',
    limit: { name: 'maxSteps', value: maxSteps },
    detail: `the agent made ${steps} model calls and still asked for tools; ${maxSteps} allowed`,
  };
}

/** After a step's tools: the stop when one of the agent's `stopWhen` conditions holds. */
export function stopConditionStop(
  conditions: readonly StopCondition[],
  run: {
    readonly steps: readonly StepResult[];
    readonly toolCalls: readonly ToolCallRecord[];
    readonly usage: Usage;
  },
  step: number,
): Stop | undefined {
  const condition = conditions.findIndex(stop => stop(run));
  if (condition === -1) return undefined;
  return {
    kind: 'stop',
    reason: 'completed',
    detail: `stopWhen condition ${condition} returned true after step ${step}`,
  };
}
