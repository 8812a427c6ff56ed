import type { AnyAgent } from '../../kernel/agent/agent.js';
import type { AnswerReading, Feature, ToolCallingMode } from '../../kernel/run/seam/feature.js';
import { reactInstructions, reactObservation, reactStopSequences } from './react-format.js';
import { ReActSplitter } from './react-splitter.js';
import { asReActMessages } from './react-transcript.js';
import { readReActAnswer } from './read-react-answer.js';

/**
 * ReAct text as a way of talking tools (`toolCalling: 'react'`): the tools are described in the
 * instructions, each answer is read as Thought / Action / Action Input or a Final Answer, and
 * results go back as Observation messages.
 */
export const reactToolCalling: ToolCallingMode = {
  name: 'react',
  carried: asReActMessages,
  // The action is in the text; native tool calls, which are not offered, are dropped.
  assistantMessage: response => ({ role: 'assistant', content: response.text, toolCalls: [] }),
  read: readAnswer,
  resultMessage: (_call, content) => ({ role: 'user', content: reactObservation(content) }),
  splitter: () => new ReActSplitter(),
  correction: message => ({ role: 'user', content: reactObservation(message) }),
  preamble: { instructions: reactInstructions, stopSequences: reactStopSequences },
};

/** ReAct as a feature of the run: agents with `toolCalling: 'react'` talk tools in text. */
export const reactFeature: Feature = {
  name: 'react',
  version: 2,
  forRun: () => reactHooks,
};

const reactHooks = { toolCalling: { react: reactToolCalling } };

/** The answer of the agent's model call `step`, read; a malformed one is observed as such. */
function readAnswer(
  response: Parameters<ToolCallingMode['read']>[0],
  agent: AnyAgent,
  step: number,
): AnswerReading {
  const {
    response: read,
    malformed,
    record,
  } = readReActAnswer(response, toolNamesOf(agent), `react_${step}`);
  if (malformed === undefined) return { response: read, record: { ...record } };
  return {
    response: read,
    malformed,
    record: { ...record, observation: reactObservation(malformed.message) },
  };
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
