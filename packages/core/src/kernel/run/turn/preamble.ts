import type { AnyAgent } from '../../agent/agent.js';
import type { ModelRequest, ToolDefinition } from '../../model/language-model.js';
import { hashString } from '../../util/hash.js';
import type { Writable } from '../../util/writable.js';
import type { ToolCallingMode } from './tool-calling.js';
import type { RequestParts, TraceToolDefinition } from './llm-event-fields.js';

/** What precedes the messages of an agent's requests: instructions, tools, and their hashes. */
export interface Preamble {
  /** What the model is told: the agent's instructions (in ReAct mode, with the tools and format). */
  readonly instructions: string;
  /** The tools offered (handoffs included), as the trace describes them. */
  readonly tools: readonly ToolDefinition[];
  /** The tools sent as native tool definitions: none in ReAct mode. */
  readonly requestTools: readonly ToolDefinition[];
  /** Sent in ReAct mode: keeps the model from writing the observation itself. */
  readonly stopSequences: readonly string[] | undefined;
  /** Instructions, tools and stop sequences together: part of the request hash. */
  readonly hash: string;
  /** The agent's own instructions. */
  readonly instructionsHash: string;
  readonly toolsHash: string;
}

/** What precedes the messages of the agent's requests, without the tools declared unavailable. */
export function preambleFor(
  agent: AnyAgent,
  unavailable: ReadonlySet<string>,
  mode: ToolCallingMode,
): Preamble {
  const tools = [
    ...agent.toolRegistry.definitions.filter(definition => !unavailable.has(definition.name)),
    ...agent.handoffs().map(handoff => handoff.definition),
  ];
  // A mode that describes the tools in the instructions (ReAct) sends no tool definitions.
  const described = mode.preamble;
  const instructions =
    described === undefined
      ? agent.instructions
      : described.instructions(agent.instructions, tools);
  return {
    instructions,
    tools,
    requestTools: described === undefined ? tools : [],
    stopSequences: described?.stopSequences,
    // What is sent is hashed: in ReAct mode the instructions with the format, and the stop sequences.
    hash: hashString(
      JSON.stringify(
        described === undefined
          ? [instructions, tools]
          : [instructions, tools, described.stopSequences],
      ),
    ),
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

/**
 * The definitions of the tools a preamble offers (handoffs included), as `agent_start` records
 * them; a tool an MCP server serves names its server.
 */
export function describeTools(preamble: Preamble, agent: AnyAgent): TraceToolDefinition[] {
  return preamble.tools.map(({ name, description, inputSchema }) => {
    const origin = agent.toolRegistry.get(name)?.origin;
    return origin === undefined
      ? { name, description, parameters: inputSchema }
      : {
          name,
          description,
          parameters: inputSchema,
          mcp_server: { name: origin.server, transport: origin.transport },
        };
  });
}
