import type { TraceEventOf } from '@agent-trace/core';
import { semconv, type SpanAttributes } from './semconv.js';
import { functionDefinitions } from './span-end-attributes.js';

/**
 * What each agent's model requests hold besides their messages (its instructions and tool
 * definitions, which the trace writes once, on the agent's start), for the `chat` spans when
 * content is captured: so a backend shows a call's whole request and an import hashes it again.
 */
export class RequestPreambles {
  readonly #agentOfSpan = new Map<string, string>();
  readonly #byAgent = new Map<string, { instructions: string; tools?: unknown[] }>();

  /** Keeps an agent's instructions, and its tool definitions (on its first start only). */
  remember(start: TraceEventOf<'agent_start'>): void {
    this.#agentOfSpan.set(start.span_id, start.agent);
    const known = this.#byAgent.get(start.agent);
    // In ReAct mode the tools are described in the instructions, not sent as definitions.
    const tools =
      start.tool_calling === 'react'
        ? undefined
        : start.tool_definitions === undefined
          ? known?.tools
          : functionDefinitions(start.tool_definitions);
    this.#byAgent.set(start.agent, {
      instructions: start.instructions,
      ...(tools === undefined ? {} : { tools }),
    });
  }

  /** Sets a model call's `gen_ai.system_instructions` and `gen_ai.tool.definitions`. */
  describe(
    start: TraceEventOf<'llm_start'>,
    attributes: SpanAttributes,
    content: (value: unknown) => string,
  ): void {
    const agent =
      start.parent_span_id === null ? undefined : this.#agentOfSpan.get(start.parent_span_id);
    const preamble = this.#byAgent.get(agent ?? start.agent);
    if (preamble === undefined) return;
    if (preamble.instructions !== '')
      attributes[semconv.systemInstructions] = content([
        { type: 'text', content: preamble.instructions },
      ]);
    // The final-output phase sends no tools.
    if (preamble.tools !== undefined && start.phase !== 'final_output')
      attributes[semconv.toolDefinitions] = content(preamble.tools);
  }
}
