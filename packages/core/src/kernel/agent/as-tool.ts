import { AgentTraceError } from '../errors/agent-trace-error.js';
import { z } from 'zod';
import type { AnyAgent } from './agent.js';
import type { StopReason } from '../protocol/stop-reason.js';
import { tool, type Tool } from '../tool/tool.js';
import type { NeedsApproval } from '../protocol/approval.js';
import { defined } from '../util/defined.js';

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

/** What marks a tool as a delegated agent; the loop runs such a tool as a nested agent. */
export interface Delegation {
  readonly agent: AnyAgent;
  readonly onReturn: ((result: DelegateResult) => unknown) | undefined;
}

/**
 * Where a tool made by `asTool()` keeps its delegation: a global symbol, so a tool made by another
 * copy of this package (an agent module loaded separately) is still recognised.
 */
const delegationKey = Symbol.for('agent-trace.delegation');

/** The delegation behind a tool made by `asTool()`, if it is one. */
export function delegationOf(value: object): Delegation | undefined {
  return (value as { [delegationKey]?: Delegation })[delegationKey];
}

/**
 * A tool that runs `agent` to completion with the caller's question and hands its answer back
 * (`mode: 'return_to_caller'`), unlike a handoff, which passes control for good. The delegate's
 * events nest under the caller's tool call.
 */
export function agentAsTool(
  agent: AnyAgent,
  options: AsToolOptions = {},
): Tool<{ input: string }, unknown> {
  const made = tool({
    name: options.name ?? `ask_${agent.name}`,
    description: options.description ?? `Ask agent '${agent.name}' and get its answer back.`,
    input: z.object({ input: z.string().describe(`What to ask agent '${agent.name}'`) }),
    ...defined('needsApproval', options.needsApproval),
    execute: () => {
      throw new AgentTraceError({
        message: `Agent tool '${agent.name}' can only run inside an agent-trace run: the loop runs the delegated agent. Give the tool to an agent and call run() or stream(); to call the agent directly, run(${agent.name}, input).`,
      });
    },
  });
  Object.defineProperty(made, delegationKey, {
    value: { agent, onReturn: options.onReturn },
    enumerable: false,
  });
  return made;
}
