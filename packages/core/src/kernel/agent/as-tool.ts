import { AgentTraceError } from '../errors/agent-trace-error.js';
import { z } from 'zod';
import type { AnyAgent, AsToolOptions, DelegateResult } from './agent-types.js';
import { tool, type Tool } from '../tool/tool.js';
import { defined } from '../util/defined.js';

export type { AsToolOptions, DelegateResult } from './agent-types.js';

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
