import type { AnyAgent, ResolvedHandoff } from './agent-types.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { Message } from '../protocol/message.js';
import { approvalCheck, type NeedsApproval } from '../protocol/approval.js';

export type { ResolvedHandoff } from './agent-types.js';

/** Options of {@link handoff}. */
export interface HandoffOptions {
  /** Told to the LLM: when to hand over to this agent. @defaultValue the target's name only */
  description?: string;
  /**
   * Chooses what the target agent sees of the conversation so far.
   * @defaultValue the whole conversation
   */
  inputFilter?: (messages: readonly Message[]) => readonly Message[];
  /** The tool name offered to the LLM. @defaultValue `transfer_to_<target name>` */
  toolName?: string;
  /**
   * The handoff must be approved by a person before control passes: always (`true`) or when a
   * function of its context says so. @defaultValue false
   */
  needsApproval?: NeedsApproval<Record<string, never>>;
}

/**
 * A handoff: the LLM transfers control of the conversation to another agent by calling a tool
 * (`transfer_to_<name>`). The target carries on with the conversation, and the run's result
 * comes from the agent that finishes. Made with {@link handoff}; an agent in `handoffs` is
 * shorthand for `handoff(agent)`.
 */
export interface Handoff {
  readonly kind: 'handoff';
  /** The target: an agent, or a function returning it (for agents that hand off to each other). */
  readonly target: AnyAgent | (() => AnyAgent);
  readonly options: HandoffOptions;
}

/**
 * Defines a handoff to `target`, with a description for the LLM and a filter on what the target
 * sees. Pass a function (`handoff(() => billing)`) when two agents hand off to each other.
 *
 * @example
 * ```ts
 * const triage = agent({ name: 'triage', model, handoffs: [billing, handoff(tech, { description: 'Technical problems' })] });
 * ```
 */
export function handoff(
  target: AnyAgent | (() => AnyAgent),
  options: HandoffOptions = {},
): Handoff {
  return { kind: 'handoff', target, options };
}

/** True for a value made by {@link handoff}. */
export function isHandoff(value: unknown): value is Handoff {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'handoff'
  );
}

/** Resolves a handoff entry (an agent, a function, or a `handoff()`) for the agent `owner`. */
export function resolveHandoff(
  entry: AnyAgent | Handoff | (() => AnyAgent),
  owner: string,
): ResolvedHandoff {
  const { target, options } = isHandoff(entry)
    ? entry
    : { target: entry, options: {} as HandoffOptions };
  const agent = typeof target === 'function' ? target() : target;
  if (typeof agent !== 'object' || agent === null || !('toolRegistry' in agent)) {
    throw new ConfigurationError({
      option: 'handoffs',
      message: `Invalid handoff in agent '${owner}': expected an agent, handoff(agent) or a function returning an agent.`,
    });
  }
  const toolName = options.toolName ?? `transfer_to_${agent.name}`;
  const description = `Hand the conversation over to agent '${agent.name}'${options.description === undefined ? '' : `: ${options.description}`}.`;
  return {
    agent,
    toolName,
    definition: {
      name: toolName,
      description,
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    },
    inputFilter: options.inputFilter,
    needsApproval: approvalCheck(options.needsApproval),
  };
}
