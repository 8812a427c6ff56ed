import type { z } from 'zod';
import type { LanguageModel, ToolDefinition } from '../model/language-model.js';
import type { Message } from '../protocol/message.js';
import type { ApprovalCheck, NeedsApproval } from '../protocol/approval.js';
import type { StopReason } from '../protocol/stop-reason.js';
import type { StopCondition } from '../termination/stop-condition.js';
import type { TerminationPolicy } from '../termination/termination-policy.js';
import type { AnyTool, Tool } from '../tool/tool.js';
import type { ToolRegistry } from '../tool/tool-registry.js';
import type { RouterSpec } from './router.js';

/**
 * The options of `agent()` that belong to the run's features, not the kernel: each feature adds
 * its own by declaration merging, in its own folder (`guardrails` in `features/guardrail`,
 * `circuitBreaker` in `features/resilience`), checks them when an agent is defined
 * (`addAgentOptionCheck`), and reads them back from `agent.featureOptions`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AgentFeatureOptions {}

/*
 * The shape of an agent and of its links to other agents (handoffs, agents as tools), in one
 * file because they refer to each other; `agent.ts`, `handoff.ts` and `as-tool.ts` make them.
 */

/** How an agent asks its model for tools: the provider's native tool calls, or ReAct text. */
export type ToolCalling = 'native' | 'react';

/** The limits of an agent, defaults filled in. */
export interface ResolvedAgentLimits {
  readonly maxSteps: number;
  readonly maxDuplicateToolCalls: number;
  readonly maxToolCallsPerTool: number;
  readonly maxTotalTokens: number | undefined;
  readonly modelTimeoutMs: number | undefined;
  /** `undefined` when the watch is off. */
  readonly streamIdleTimeoutMs: number | undefined;
  readonly maxDecodeRetries: number;
  readonly maxMalformedAnswers: number;
  readonly maxHandoffDepth: number;
}

/** Retry settings of an agent, defaults filled in. */
export interface ResolvedResilience {
  readonly modelAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly toolRetries: number;
}

/** An agent: a model with instructions, tools and limits. Made with {@link agent}. */
export interface Agent<Output = string> {
  readonly name: string;
  readonly instructions: string;
  readonly description: string;
  /** The agent's version, when given. */
  readonly version: string | undefined;
  /** Set for routers: how they pick the agent that takes the input. */
  readonly router: RouterSpec | undefined;
  readonly model: LanguageModel;
  readonly tools: readonly AnyTool[];
  /** How the agent offers its tools to the model: native tool calls, or ReAct text. */
  readonly toolCalling: ToolCalling;
  readonly limits: ResolvedAgentLimits;
  readonly stopWhen: readonly StopCondition[];
  readonly terminationPolicy: TerminationPolicy;
  readonly fallbackModel: LanguageModel | undefined;
  readonly resilience: ResolvedResilience;
  readonly memory: { readonly window: number | undefined; readonly maxItems: number | undefined };
  /** The handoffs, targets resolved on first use (so agents may hand off to each other). */
  readonly handoffs: () => readonly ResolvedHandoff[];
  readonly onHandoffCycle: 'stop' | 'refuse';
  /**
   * This agent as a tool for another: it runs to completion and its answer comes back to the
   * caller as the tool's result (delegation that returns, unlike a handoff).
   */
  asTool(options?: AsToolOptions): Tool<{ input: string }, unknown>;
  /** The schema of the final answer; undefined for plain text. */
  readonly output: z.ZodType<Output> | undefined;
  /** The run's features' own options for this agent (`guardrails`, `circuitBreaker`, …). */
  readonly featureOptions: Readonly<AgentFeatureOptions>;
  /** The agent's tools by name. @internal */
  readonly toolRegistry: ToolRegistry;
}

/** An agent of any output type, as the loop handles them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgent = Agent<any>;

/** A handoff with its target resolved: what the loop works with. */
export interface ResolvedHandoff {
  readonly agent: AnyAgent;
  readonly toolName: string;
  readonly definition: ToolDefinition;
  readonly inputFilter: ((messages: readonly Message[]) => readonly Message[]) | undefined;
  /** Set when the handoff must be approved before it happens. */
  readonly needsApproval: ApprovalCheck | undefined;
}

/** What a delegated agent came back with. */
export interface DelegateResult {
  readonly agent: string;
  readonly stopReason: StopReason;
  /** Its answer: the text, or the decoded value for an agent with an output schema. */
  readonly output: unknown;
}

/** Options of `agent.asTool()`. */
export interface AsToolOptions {
  /** @defaultValue `ask_<agent name>` */
  name?: string;
  /** @defaultValue `Ask agent '<name>' and get its answer back.` */
  description?: string;
  /**
   * Runs when the delegated agent returns: turns its result into
   * what the calling LLM is given. @defaultValue the output
   */
  onReturn?: (result: DelegateResult) => unknown;
  /**
   * Calls of the delegated agent that must be approved by a person first, as for a tool.
   * @defaultValue false
   */
  needsApproval?: NeedsApproval<{ input: string }>;
}
