import { agent, type LanguageModel } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';

/** The request the planner is given in the example. */
export const request = 'Report the sales by region from the data in sales-2026.csv.';

/**
 * What a FakeLLM planner answers: a plan that reads sales-2026.csv (which does not exist, so the
 * collecting step fails), then, told so, a plan that reads sales.csv instead.
 */
export const plannerScript = [
  { text: `Here is the plan:\n${plan('regional-report', 'sales-2026.csv')}` },
  {
    text: `sales-2026.csv is missing; sales.csv holds the same columns.\n${plan('regional-report-from-sales-csv', 'sales.csv', 'steps.clean.output[0].region != null')}`,
  },
];

/**
 * A plan of the pipeline's four steps, reading `source`, analysing each region at once
 * (`for_each`), its analysis under `condition`.
 */
function plan(name: string, source: string, condition?: string): string {
  const when = condition === undefined ? '' : `\n      condition: ${condition}`;
  return `\`\`\`yaml
workflow:
  name: ${name}
  steps:
    - name: collect
      tool: data_collector
      input: { source: ${source} }
    - name: clean
      tool: data_preprocessor
      depends_on: [collect]
    - name: analyse
      tool: region_analyzer
      depends_on: [clean]
      for_each: steps.clean.output${when}
    - name: report
      tool: report_generator
      depends_on: [analyse]
\`\`\``;
}

/** The planner agent: it breaks a request into a workflow of the pipeline's tools. */
export function plannerAgent(model: LanguageModel = fakeLLM(plannerScript)) {
  return agent({
    name: 'planner',
    description: 'Breaks a data request into a workflow of steps.',
    instructions:
      'You plan data work. Answer with a workflow in YAML, using only the tools you are given. When a step fails, write a new plan that avoids the failure.',
    model,
  });
}
