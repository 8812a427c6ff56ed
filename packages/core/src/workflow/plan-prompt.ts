import type { AnyAgent } from '../kernel/agent/agent.js';
import type { AnyTool } from '../kernel/tool/tool.js';
import type { WorkflowStepRecord } from './step-record.js';
import { yaml } from './yaml-peer.js';

/** What a planner may put in its plans. */
export interface PlanCatalog {
  readonly tools: readonly AnyTool[];
  readonly agents: readonly AnyAgent[];
}

const format = `workflow:
  name: <a short name>
  steps:
    - name: <a unique step name>
      tool: <one of the tools below>     # or agent: <one of the agents below>, or approval: <a question for a person>
      input: <the tool's input>          # "\${steps.<name>.output}" is an earlier step's output, "\${input}" the request
      depends_on: [<the steps it needs>]
      for_each: <optional, e.g. steps.clean.output>  # run once per item of that list, the item as input, all at once
      parallel: false                    # optional: run alone, not beside other steps (default: true)
      condition: <optional, e.g. steps.check.output.ok == true>
      retries: <optional number of retries>`;

/** What a planner is asked first: the request, the plan's format, and what it may use. */
export function planRequest(request: string, catalog: PlanCatalog): string {
  const tools = catalog.tools.map(
    tool =>
      `- ${tool.name}: ${tool.description} Input (JSON Schema): ${JSON.stringify(tool.definition.inputSchema)}`,
  );
  const agents = catalog.agents.map(
    agent => `- ${agent.name}: ${agent.description || agent.instructions} Input: text.`,
  );
  return [
    'Plan how to carry out the request below as a workflow of steps, then answer with only the workflow, in YAML (or JSON):',
    '',
    format,
    '',
    `Tools:\n${tools.join('\n') || '(none)'}`,
    `Agents:\n${agents.join('\n') || '(none)'}`,
    '',
    `Request: ${request}`,
  ].join('\n');
}

/** What a planner is told about a plan that did not load: the problem, where, and how to fix it. */
export function refusedPlanFeedback(problem: string): string {
  return `Your plan was refused: ${problem}\nAnswer with the corrected workflow only.`;
}

/** What a planner is told after a step of its plan failed: the failure and what completed. */
export function failedStepFeedback(
  failed: WorkflowStepRecord,
  records: readonly WorkflowStepRecord[],
): string {
  const completed = records
    .filter(record => record.status === 'completed')
    .map(record => `- ${record.name}: ${JSON.stringify(record.output)}`);
  return [
    `The plan failed at step '${failed.name}': ${failed.error?.message ?? 'no error was recorded'}.`,
    completed.length === 0
      ? 'No step completed.'
      : `Steps that completed, with their outputs:\n${completed.join('\n')}`,
    'Write a new plan for the request that avoids this failure. You may put the outputs above into the inputs of steps instead of running those steps again. Answer with the workflow only.',
  ].join('\n');
}

/** The plan in a planner's answer: the first fenced block when there is one, else all of it. */
export function planText(answer: string): string {
  const fenced = /```[a-zA-Z]*\n([\s\S]*?)```/.exec(answer);
  return (fenced?.[1] ?? answer).trim();
}

/** The plan as a value for the trace: its YAML or JSON read, or the text when it does not parse. */
export function planValue(text: string): unknown {
  try {
    return yaml().parse(text) as unknown;
  } catch {
    return text;
  }
}
