import type { AnyAgent, ToolCalling } from '../agent/agent.js';
import type { ModelResponse } from '../model/language-model.js';
import type { Chunk } from '../protocol/chunk.js';
import type { AssistantMessage, Message, ToolCallRequest } from '../protocol/message.js';
import type { ReActRecord } from '../protocol/records.js';
import { reactObservation } from '../react/react-format.js';
import { readReActAnswer, type ReActReading } from '../react/read-react-answer.js';
import { ReActSplitter, type TextPiece, type TextSplitter } from '../react/react-splitter.js';
import { asReActMessages } from '../react/react-transcript.js';
import type { ChunkSequence } from './chunk-sequence.js';

/** A model answer as the loop decides from it. */
export type AnswerReading = Pick<ReActReading, 'response' | 'malformed'> & {
  /** In ReAct mode: how the answer was read. */
  readonly record?: ReActRecord;
};

/**
 * How an agent's turn talks tools with its model: the provider's native tool calls, or ReAct text
 * (tools described in the instructions, actions parsed from the answer, results sent back as
 * Observation messages). The loop is the same for both; only these differ.
 */
export interface ToolCallingMode {
  readonly name: ToolCalling;
  /** The messages a turn carries in (history, a handoff's conversation), as this mode shows them. */
  readonly carried: (messages: readonly Message[]) => readonly Message[];
  /** The model's answer as the conversation keeps it. */
  readonly assistantMessage: (response: ModelResponse) => AssistantMessage;
  /** Reads the model's answer of the agent's model call `step`. */
  readonly read: (response: ModelResponse, agent: AnyAgent, step: number) => AnswerReading;
  /** The message that gives the model a tool call's result (or error). */
  readonly resultMessage: (call: ToolCallRequest, content: string, isError: boolean) => Message;
  /** Splits the model's text into chunks' pieces as it arrives; without one, it is all answer. */
  readonly splitter?: () => TextSplitter;
}

const native: ToolCallingMode = {
  name: 'native',
  carried: messages => messages,
  assistantMessage: response => ({
    role: 'assistant',
    content: response.text,
    toolCalls: response.toolCalls,
  }),
  read: response => ({ response }),
  resultMessage: (call, content, isError) => ({
    role: 'tool',
    callId: call.callId,
    toolName: call.toolName,
    content,
    isError,
  }),
};

const react: ToolCallingMode = {
  name: 'react',
  carried: asReActMessages,
  // The action is in the text; native tool calls, which are not offered, are dropped.
  assistantMessage: response => ({ role: 'assistant', content: response.text, toolCalls: [] }),
  read: (response, agent, step) => readReActAnswer(response, toolNamesOf(agent), `react_${step}`),
  resultMessage: (_call, content) => ({ role: 'user', content: reactObservation(content) }),
  splitter: () => new ReActSplitter(),
};

/** The tool calling of an agent. */
export function toolCallingOf(agent: AnyAgent): ToolCallingMode {
  return agent.toolCalling === 'react' ? react : native;
}

const toolNames = new WeakMap<AnyAgent, readonly string[]>();

/** Every tool and handoff name of the agent, also of tools declared unavailable in a turn. */
function toolNamesOf(agent: AnyAgent): readonly string[] {
  let names = toolNames.get(agent);
  if (names === undefined) {
    names = [
      ...agent.toolRegistry.definitions.map(definition => definition.name),
      ...agent.handoffs().map(handoff => handoff.toolName),
    ];
    toolNames.set(agent, names);
  }
  return names;
}

/** The chunks of text pieces: the answer as `delta`, ReAct's other parts as `react`. */
export function pieceChunks(
  pieces: readonly TextPiece[],
  agentName: string,
  chunks: ChunkSequence,
): Chunk[] {
  return pieces.map(({ label, text }) =>
    label === 'answer'
      ? chunks.make('delta', agentName, { text })
      : chunks.make('react', agentName, { label, text }),
  );
}
