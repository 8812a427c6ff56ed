import type { AnyAgent } from '../../agent/agent.js';
import type { ModelResponse, ToolDefinition } from '../../model/language-model.js';
import type { Chunk } from '../../protocol/chunk.js';
import type { AssistantMessage, Message, ToolCallRequest } from '../../protocol/message.js';
import type { ReActRecord } from '../../protocol/records.js';
import type { MalformedAnswerProblem } from '../../protocol/malformed-answer.js';
import type { TextPiece, TextSplitter } from './text-splitter.js';
import type { ChunkSequence } from '../frame/chunk-sequence.js';

/** A model answer as the loop decides from it. */
export interface AnswerReading {
  /** The answer as the loop decides from it (in ReAct mode, an Action as one tool call). */
  readonly response: ModelResponse;
  /** Set when the answer could not be read (not a ReAct step): what was wrong, what the model is told. */
  readonly malformed?: { readonly problem: MalformedAnswerProblem; readonly message: string };
  /** In ReAct mode: how the answer was read. */
  readonly record?: ReActRecord;
}

/**
 * How an agent's turn talks tools with its model: the provider's native tool calls here, or a
 * feature's (ReAct text: tools described in the instructions, actions parsed from the answer,
 * results sent back as Observation messages). The loop is the same for all; only these differ.
 */
export interface ToolCallingMode {
  readonly name: string;
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
  /** The message that tells the model what was wrong with an answer it could not read. */
  readonly correction: (message: string) => Message;
  /**
   * Set when the tools are described in the instructions instead of sent as definitions: the
   * instructions as sent, and stop sequences that keep the model from writing the results.
   */
  readonly preamble?: {
    readonly instructions: (own: string, tools: readonly ToolDefinition[]) => string;
    readonly stopSequences: readonly string[];
  };
}

/** The provider's native tool calls: the kernel's own way. */
export const nativeToolCalling: ToolCallingMode = {
  name: 'native',
  carried: messages => messages,
  assistantMessage: response =>
    response.reasoning === undefined || response.reasoning.length === 0
      ? { role: 'assistant', content: response.text, toolCalls: response.toolCalls }
      : {
          role: 'assistant',
          content: response.text,
          toolCalls: response.toolCalls,
          reasoning: response.reasoning,
        },
  read: response => ({ response }),
  resultMessage: (call, content, isError) => ({
    role: 'tool',
    callId: call.callId,
    toolName: call.toolName,
    content,
    isError,
  }),
  correction: message => ({ role: 'user', content: message }),
};

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
