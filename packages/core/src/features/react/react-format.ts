import type { ToolDefinition } from '../../kernel/model/language-model.js';
import type { MalformedAnswerProblem } from '../../kernel/protocol/malformed-answer.js';

/**
 * The ReAct text format: a model without native tool calling is told the tools in its
 * instructions and answers in labelled lines, one step at a time.
 *
 * ```text
 * Thought: I need the sum.
 * Action: calculator
 * Action Input: {"expression": "2 + 3"}
 * ```
 *
 * The loop answers an action with `Observation: <result>`; the model ends with
 * `Final Answer: <answer>`.
 */
export const reactLabels = {
  thought: 'Thought:',
  action: 'Action:',
  actionInput: 'Action Input:',
  observation: 'Observation:',
  finalAnswer: 'Final Answer:',
} as const;

/** The stop sequence that keeps a model from writing the observation itself. */
export const reactStopSequences: readonly string[] = ['\nObservation:'];

/** A model answer read as a ReAct step. */
export type ReActStep =
  | {
      readonly kind: 'action';
      readonly thought: string;
      readonly tool: string;
      /** The Action Input, parsed as JSON. */
      readonly input: unknown;
      /** The Action Input as written. */
      readonly inputText: string;
    }
  | { readonly kind: 'final_answer'; readonly thought: string; readonly answer: string }
  | {
      readonly kind: 'malformed';
      readonly problem: MalformedAnswerProblem;
      /** What was wrong and how to answer instead, for the model (sent as the observation). */
      readonly message: string;
      /** The thought, when one could be read. */
      readonly thought: string;
    };

type Label = keyof typeof reactLabels;

interface Section {
  readonly label: Label;
  readonly text: string;
}

const labelPattern =
  /^[ \t]*(?:\*\*)?(thought|action input|action|observation|final answer)(?:\*\*)?[ \t]*:[ \t]*/gim;

const labelOf: Readonly<Record<string, Label>> = {
  thought: 'thought',
  action: 'action',
  'action input': 'actionInput',
  observation: 'observation',
  'final answer': 'finalAnswer',
};

/** Splits an answer at its labels (at line starts, any case); text before the first is a thought. */
function sections(text: string): Section[] {
  const found: { label: Label; start: number; end: number }[] = [];
  for (const match of text.matchAll(labelPattern)) {
    const label = labelOf[(match[1] ?? '').toLowerCase()];
    if (label !== undefined)
      found.push({ label, start: match.index, end: match.index + match[0].length });
  }
  const result: Section[] = [];
  const lead = text.slice(0, found[0]?.start ?? text.length).trim();
  if (lead !== '') result.push({ label: 'thought', text: lead });
  found.forEach((section, index) =>
    result.push({
      label: section.label,
      text: text.slice(section.end, found[index + 1]?.start ?? text.length).trim(),
    }),
  );
  return result;
}

const formatReminder = `Answer in this format: "Thought: …" then either "Action: <tool>" and "Action Input: <JSON>" (and stop: the observation is written for you), or "Final Answer: <answer>".`;

/** Removes a Markdown code fence around a JSON input. */
function unfence(text: string): string {
  const fenced = /^```[a-z]*\s*\n?([\s\S]*?)\n?```$/i.exec(text.trim());
  return (fenced?.[1] ?? text).trim();
}

/** Removes quotes or backticks around a tool name. */
function toolName(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  return line.replace(/^[`'"]+|[`'"]+$/g, '').trim();
}

function malformed(problem: MalformedAnswerProblem, what: string, thought: string): ReActStep {
  return { kind: 'malformed', problem, message: `${what} ${formatReminder}`, thought };
}

/**
 * Reads a model's answer as one ReAct step: an action (a known tool and a JSON input), a final
 * answer, or a malformed answer with a message that says what was wrong and how to answer. Never
 * throws, whatever the text.
 *
 * @param text - the model's answer
 * @param tools - the names of the tools the model may use
 */
export function parseReActStep(text: string, tools: readonly string[]): ReActStep {
  const parts = sections(text);
  const first = (label: Label): Section | undefined => parts.find(part => part.label === label);
  const thought = parts
    .filter(part => part.label === 'thought')
    .map(part => part.text)
    .join('\n');
  const action = first('action');
  const final = first('finalAnswer');
  if (first('observation') !== undefined)
    return malformed(
      'invented_observation',
      'Your answer contains an "Observation:" line: observations are the tools\' real results, written for you after your Action Input. Stop after the Action Input.',
      thought,
    );
  if (action !== undefined && final !== undefined)
    return malformed(
      'action_and_final_answer',
      'Your answer has both an Action and a Final Answer: give one of them per answer.',
      thought,
    );
  if (final !== undefined) return { kind: 'final_answer', thought, answer: final.text };
  if (action === undefined)
    return malformed('no_action', 'Your answer has neither an Action nor a Final Answer.', thought);
  const tool = toolName(action.text);
  if (!tools.includes(tool))
    return malformed(
      'unknown_tool',
      `There is no tool '${tool}'. The tools are: ${tools.join(', ') || '(none)'}.`,
      thought,
    );
  const inputSection = first('actionInput');
  if (inputSection === undefined)
    return malformed(
      'no_action_input',
      `The Action '${tool}' has no "Action Input:" line.`,
      thought,
    );
  const inputText = unfence(inputSection.text);
  try {
    return { kind: 'action', thought, tool, input: JSON.parse(inputText) as unknown, inputText };
  } catch {
    return malformed(
      'invalid_json',
      `The Action Input of '${tool}' is not valid JSON: ${JSON.stringify(inputText.slice(0, 200))}. Write it as a JSON value matching the tool's input schema.`,
      thought,
    );
  }
}

/**
 * The instructions an agent in ReAct mode gives its model: its own instructions, then each tool
 * with its description and the JSON Schema of its input, then the format.
 */
export function reactInstructions(instructions: string, tools: readonly ToolDefinition[]): string {
  const described = tools.map(
    tool =>
      `- ${tool.name}: ${tool.description}\n  input (JSON Schema): ${JSON.stringify(tool.inputSchema)}`,
  );
  return [
    instructions,
    '',
    tools.length === 0 ? 'You have no tools.' : `You can use these tools:\n${described.join('\n')}`,
    '',
    'Work one step at a time. For each step answer:',
    'Thought: what you think about next',
    `Action: the tool to use, one of ${tools.map(tool => tool.name).join(', ') || '(none)'}`,
    "Action Input: the tool's input, as JSON",
    'Then stop: the tool runs and its result comes back as "Observation: <result>".',
    'When you know the answer, answer:',
    'Thought: I know the answer',
    'Final Answer: the answer',
  ].join('\n');
}

/** A tool's result (or a problem) as the text message the model reads. */
export function reactObservation(result: string): string {
  return `${reactLabels.observation} ${result}`;
}
