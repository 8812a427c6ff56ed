import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agent } from '../kernel/agent/agent.js';
import { tool } from '../kernel/tool/tool.js';
// Through the entry, which loads the optional peer yaml for the loader.
import { loadWorkflow, WorkflowLoadError } from '../workflows.js';

/** The seed's data-analysis pipeline, as written there. */
const seedWorkflow = `workflow:
  name: "データ分析パイプライン"
  steps:
    - name: "データ収集"
      tool: "data_collector" # Tool Registryに登録されたツール名
      condition: "always"   # 実行条件
    - name: "前処理"
      tool: "data_preprocessor"
      depends_on: ["データ収集"] # 依存するステップ
    - name: "分析"
      tool: "analyzer"
      depends_on: ["前処理"]
      parallel: true # 並列実行の可否
    - name: "レポート生成"
      tool: "report_generator"
      depends_on: ["分析"]
`;
const tools = ['data_collector', 'data_preprocessor', 'analyzer', 'report_generator'].map(name =>
  tool({ name, description: name, input: z.unknown(), execute: () => null }),
);
const writer = agent({
  name: 'writer',
  model: {
    specificationVersion: 'v1',
    provider: 'fake',
    modelId: 'm',
    generate: () => Promise.reject(new Error('unused')),
    stream: () => ({
      [Symbol.asyncIterator]: () => {
        throw new Error('unused');
      },
    }),
  },
});

/** The error loading `text` gives, as file:line:column and message. */
function failure(text: string, options = {}): string {
  try {
    loadWorkflow(text, { file: 'pipeline.yaml', tools, agents: [writer], ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(WorkflowLoadError);
    return (error as Error).message;
  }
  throw new Error('the workflow loaded');
}

describe('loadWorkflow', () => {
  it("loads the seed's workflow.yaml: steps, dependencies, the condition", () => {
    const workflow = loadWorkflow(seedWorkflow, { tools });
    expect(workflow.name).toBe('データ分析パイプライン');
    const runs = (step: (typeof workflow.steps)[number]) =>
      step.runs.kind === 'tool' ? step.runs.tool === tools[0] || step.runs.name : step.runs.kind;
    expect(workflow.steps.map(step => [step.name, runs(step), step.dependsOn])).toEqual([
      ['データ収集', true, []],
      ['前処理', 'data_preprocessor', ['データ収集']],
      ['分析', 'analyzer', ['前処理']],
      ['レポート生成', 'report_generator', ['分析']],
    ]);
    expect(workflow.steps[0]?.condition?.text).toBe('always');
    expect(workflow.steps[2]?.at).toEqual({ line: 10, column: 7 });
    // parallel: whether the step may run beside others (the default); it is no fan-out.
    expect(workflow.steps.map(step => step.parallel)).toEqual([true, true, true, true]);
    expect(workflow.steps.map(step => step.forEach)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads parallel: false as a step that runs alone, and for_each as a fan-out', () => {
    const workflow = loadWorkflow(
      seedWorkflow
        .replace('parallel: true # 並列実行の可否', 'for_each: steps["前処理"].output.regions')
        .replace('depends_on: ["分析"]', 'depends_on: ["分析"]\n      parallel: false'),
      { tools },
    );
    expect(workflow.steps[2]?.forEach?.text).toBe('steps["前処理"].output.regions');
    expect(workflow.steps[3]?.parallel).toBe(false);
    const wrapped = loadWorkflow(
      seedWorkflow.replace('parallel: true', 'for_each: "${steps[\\"前処理\\"].output}"'),
      { tools },
    );
    expect(wrapped.steps[2]?.forEach?.text).toBe('steps["前処理"].output');
  });

  it('loads JSON too', () => {
    const workflow = loadWorkflow(
      JSON.stringify({ workflow: { name: 'j', steps: [{ name: 'a', agent: 'writer' }] } }),
      { agents: [writer] },
    );
    expect(workflow.steps[0]?.runs).toEqual({ kind: 'agent', name: 'writer', agent: writer });
  });

  it('reads approval steps and inputs as plain values', () => {
    const workflow = loadWorkflow(
      'workflow:\n  name: w\n  steps:\n    - name: a\n      tool: analyzer\n      input: { rows: [1, 2], by: "${input.who}" }\n    - name: ok\n      approval: Publish?\n      depends_on: [a]\n',
      { tools },
    );
    expect(workflow.steps[0]?.input).toEqual({ rows: [1, 2], by: '${input.who}' });
    expect(workflow.steps[1]?.runs).toEqual({ kind: 'approval', prompt: 'Publish?' });
  });

  it.each([
    [
      'an unknown tool',
      seedWorkflow.replace('tool: "analyzer"', 'tool: "analyser"'),
      "pipeline.yaml:11:13: unknown tool 'analyser' in step '分析': the tools are data_collector, data_preprocessor, analyzer, report_generator",
    ],
    [
      'an unknown agent',
      'workflow:\n  name: w\n  steps:\n    - name: a\n      agent: editor\n',
      "pipeline.yaml:5:14: unknown agent 'editor' in step 'a': the agents are writer",
    ],
    [
      'a dependency cycle, named',
      seedWorkflow.replace('depends_on: ["データ収集"]', 'depends_on: ["レポート生成"]'),
      'pipeline.yaml:9:19: the steps depend on each other in a cycle: 前処理 → レポート生成 → 分析 → 前処理. Remove one of these dependencies.',
    ],
    [
      'a missing dependency',
      seedWorkflow.replace('depends_on: ["分析"]', 'depends_on: ["分析", "検証"]'),
      "pipeline.yaml:16:26: step 'レポート生成' depends on '検証', which is not a step of this workflow",
    ],
    [
      'a bad condition, at its column',
      seedWorkflow.replace('condition: "always"', 'condition: "steps.a.output >"'),
      // The string's 17th column: right after its opening quote at column 18.
      'pipeline.yaml:6:35: bad condition: expected a value',
    ],
    [
      'a condition that reads a later step',
      seedWorkflow.replace('condition: "always"', 'condition: steps["分析"].output.ok'),
      "pipeline.yaml:6:18: the condition of step 'データ収集' reads step '分析', which does not run before it: add '分析' to its depends_on",
    ],
    [
      'a duplicate step name',
      seedWorkflow.replace('name: "レポート生成"', 'name: "分析"'),
      "pipeline.yaml:14:13: a second step named '分析' (the first is at line 10): step names must be unique",
    ],
    [
      'a step with both a tool and an agent',
      'workflow:\n  name: w\n  steps:\n    - name: a\n      tool: analyzer\n      agent: writer\n',
      "pipeline.yaml:4:7: step 'a' must name exactly one of tool, agent and approval",
    ],
    [
      'an input that reads a step not before it',
      seedWorkflow.replace(
        'tool: "data_preprocessor"',
        'tool: "data_preprocessor"\n      input: { report: "${steps[\\"レポート生成\\"].output}" }',
      ),
      "pipeline.yaml:9:14: the input of step '前処理' reads step 'レポート生成', which does not run before it",
    ],
    [
      'a bad ${…} in an input',
      seedWorkflow.replace('tool: "analyzer"', 'tool: "analyzer"\n      input: "${steps.}"'),
      'pipeline.yaml:12:14: bad ${…} in the input: in ${steps.}: expected a name after',
    ],
    [
      'an unknown key',
      seedWorkflow.replace('parallel: true', 'paralel: true'),
      "pipeline.yaml:13:7: unknown key 'paralel' in a step",
    ],
    [
      'parallel that is not true or false',
      seedWorkflow.replace('parallel: true', 'parallel: each'),
      "pipeline.yaml:13:17: 'parallel' must be true or false",
    ],
    [
      'a for_each that reads a step not before it',
      seedWorkflow.replace('parallel: true', 'for_each: steps["レポート生成"].output'),
      "pipeline.yaml:13:17: the for_each of step '分析' reads step 'レポート生成', which does not run before it: add 'レポート生成' to its depends_on",
    ],
    [
      'a for_each beside an input',
      seedWorkflow.replace('parallel: true', 'for_each: steps["前処理"].output\n      input: [1]'),
      "pipeline.yaml:13:17: step '分析' has both for_each and input: each item of for_each is the step's input",
    ],
    [
      'a for_each on an approval step',
      'workflow:\n  name: w\n  steps:\n    - name: ok\n      approval: Publish?\n      for_each: input.items\n',
      "pipeline.yaml:6:17: step 'ok' waits for approval, which runs once: remove for_each",
    ],
    [
      'a bad for_each, at its column',
      seedWorkflow.replace('parallel: true', 'for_each: steps.'),
      'pipeline.yaml:13:23: bad for_each: expected a name after',
    ],
    [
      'YAML that does not parse',
      'workflow:\n  name: "w\n  steps: []\n',
      'pipeline.yaml:4:1: not valid YAML: Missing closing "quote.',
    ],
  ])('refuses %s with file:line:column', (_, text, message) => {
    expect(failure(text)).toContain(message);
  });
});
