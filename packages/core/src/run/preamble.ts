import type { AnyAgent } from '../agent/agent.js';
import type { ModelRequest, ToolDefinition } from '../model/language-model.js';
import { hashString } from '../util/hash.js';
import type { Writable } from '../util/writable.js';
import type { RequestParts, TraceToolDefinition } from './llm-event-fields.js';

/** The tools offered to the model and the hashes of what precedes the messages. */
export interface Preamble {
  readonly tools: readonly ToolDefinition[];
  /** Instructions and tools together: part of the request hash. */
  readonly hash: string;
  readonly instructionsHash: string;
  readonly toolsHash: string;
}

/** What precedes the messages of the agent's requests, without the tools declared unavailable. */
export function preambleFor(agent: AnyAgent, unavailable: ReadonlySet<string>): Preamble {
  const tools = [
    ...agent.toolRegistry.definitions.filter(definition => !unavailable.has(definition.name)),
    ...agent.handoffs().map(handoff => handoff.definition),
  ];
  return {
    tools,
    hash: hashString(JSON.stringify([agent.instructions, tools])),
    instructionsHash: hashString(agent.instructions),
    toolsHash: hashString(JSON.stringify(tools)),
  };
}

const noToolsHash = hashString('[]');

/** The hash of each part of a model request, for the trace. */
export function requestParts(
  preamble: Preamble,
  messagesHash: string,
  responseFormat: ModelRequest['responseFormat'],
): RequestParts {
  const parts: Writable<RequestParts> = {
    instructions: preamble.instructionsHash,
    tools: responseFormat === undefined ? preamble.toolsHash : noToolsHash,
    messages: messagesHash,
  };
  if (responseFormat !== undefined)
    parts.response_format = hashString(JSON.stringify(responseFormat));
  return parts;
}

/** The definitions of the tools a preamble offers (handoffs included), as `agent_start` records them. */
export function describeTools(preamble: Preamble): TraceToolDefinition[] {
  return preamble.tools.map(({ name, description, inputSchema }) => ({
    name,
    description,
    parameters: inputSchema,
  }));
}
