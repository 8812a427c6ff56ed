import type { ModelResponse } from '../../kernel/model/language-model.js';
import type { MalformedAnswerProblem } from '../../kernel/protocol/malformed-answer.js';
import type { ReActRecord } from '../../kernel/protocol/records.js';
import { parseReActStep } from './react-format.js';

/** A model answer in ReAct mode, read. */
export interface ReActReading {
  /**
   * The answer as the loop decides from it: an Action as one tool call, a Final Answer as the
   * text alone, a malformed answer with no tool calls.
   */
  readonly response: ModelResponse;
  /** Set when the answer was not a ReAct step: what was wrong, and what the model is told. */
  readonly malformed?: { readonly problem: MalformedAnswerProblem; readonly message: string };
  readonly record: ReActRecord;
}

/**
 * Reads a model answer as a ReAct step. Native tool calls in the answer are ignored: an agent in
 * ReAct mode offers none.
 *
 * @param toolNames - the tools (and handoffs) the agent has, also those declared unavailable
 * @param callId - the id the action's tool call gets
 */
export function readReActAnswer(
  response: ModelResponse,
  toolNames: readonly string[],
  callId: string,
): ReActReading {
  const step = parseReActStep(response.text, toolNames);
  switch (step.kind) {
    case 'action':
      return {
        response: {
          ...response,
          toolCalls: [{ callId, toolName: step.tool, argumentsText: step.inputText }],
          finishReason: 'tool_calls',
        },
        record: { thought: step.thought, action: { tool: step.tool, input: step.input } },
      };
    case 'final_answer':
      return {
        response: { ...response, text: step.answer, toolCalls: [] },
        record: { thought: step.thought, finalAnswer: step.answer },
      };
    case 'malformed':
      return {
        response: { ...response, toolCalls: [] },
        malformed: { problem: step.problem, message: step.message },
        record: { thought: step.thought, malformed: step.problem },
      };
  }
}
