import { agent, type LanguageModel } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';

/** The request the planner is given in the example. */
export const request = 'Report the sales by region from the data in sales-2026.csv.';

/**
 * What a FakeLLM planner answers: a plan that reads sales-2026.csv (which does not exist, so the
 * collecting step fails), then, told so, a plan that reads sales.csv instead.
 */
export const plannerScript = [
  {
    text: `Here is the plan:
\`\`\`yaml
workflow:
  name: regional-report
  steps:
    - name: collect
      tool: data_collector
      input: { source: sales-2026.csv }
    - name: clean
      tool: data_preprocessor
      depends_on: [collect]
    - name: analyse
      tool: analyzer
      depends_on: [clean]
      parallel: true
    - name: report
      tool: report_generator
      depends_on: [analyse]
\`\`\``,
  },
  {
    text: `sales-2026.csv is missing; sales.csv holds the same columns.
\`\`\`yaml
workflow:
  name: regional-report-from-sales-csv
  steps:
    - name: collect
      tool: data_collector
      input: { source: sales.csv }
    - name: clean
      tool: data_preprocessor
      depends_on: [collect]
    - name: analyse
      tool: analyzer
      depends_on: [clean]
      parallel: true
      condition: steps.clean.output[0].region != null
    - name: report
      tool: report_generator
      depends_on: [analyse]
\`\`\``,
  },
];

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
