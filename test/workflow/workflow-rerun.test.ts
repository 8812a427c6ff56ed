/**
 * A recorded workflow run reruns without divergence against today's workflow (tools and agent
 * steps answered from the recording), and a changed workflow is named where it diverges.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { agent } from '@agent-trace/core';
import { loadWorkflow, runWorkflow, workflow } from '@agent-trace/core/workflow';
import { fakeLLM, rerunTrace } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { pipelineTools } from '../../examples/data-pipeline/tools.js';

const file = fileURLToPath(new URL('../../examples/data-pipeline/workflow.yaml', import.meta.url));
const pipeline = () => loadWorkflow(readFileSync(file, 'utf8'), { file, tools: pipelineTools });

function withWriter(instructions: string) {
  const writer = agent({
    name: 'writer',
    instructions,
    model: fakeLLM([{ text: 'North leads.' }], { allowUnusedSteps: true }),
  });
  const base = pipeline();
  return workflow({
    name: base.name,
    steps: [
      ...base.steps.map(step => ({
        name: step.name,
        tool: step.runs.kind === 'tool' ? step.runs.tool : undefined,
        dependsOn: step.dependsOn,
        parallel: step.parallel,
        ...(step.condition === undefined ? {} : { condition: step.condition.text }),
      })),
      { name: 'headline', agent: writer, dependsOn: ['レポート生成'] },
    ],
  });
}

describe('rerunning a workflow trace', () => {
  it('reproduces the recorded run: same steps, same outputs, no divergence', async () => {
    const sink = memorySink();
    await runWorkflow(withWriter('Write a headline.'), { source: 'sales.csv' }, { trace: sink });
    const report = await rerunTrace(sink.events, withWriter('Write a headline.'));
    expect(report.differences).toEqual([]);
    expect(report.same).toBe(true);
    expect(report.result.output).toBe('North leads.');
  });

  it("names the first divergence when today's workflow differs", async () => {
    const sink = memorySink();
    await runWorkflow(withWriter('Write a headline.'), { source: 'sales.csv' }, { trace: sink });
    const report = await rerunTrace(sink.events, withWriter('Write a subtitle.'));
    expect(report.same).toBe(false);
    expect(report.firstDivergence?.agent).toBe('writer');
  });

  it('names a changed step: the analysis now runs once per region', async () => {
    const sink = memorySink();
    await runWorkflow(pipeline(), { source: 'sales.csv' }, { trace: sink });
    const changed = loadWorkflow(
      readFileSync(file, 'utf8').replace(
        /tool: "analyzer"\n(\s+)depends_on: \["前処理"\]\n\s+parallel: true[^\n]*/,
        'tool: "region_analyzer"\n$1depends_on: ["前処理"]\n$1for_each: steps["前処理"].output',
      ),
      { file, tools: pipelineTools },
    );
    const report = await rerunTrace(sink.events, changed, { liveTools: true });
    expect(report.same).toBe(false);
    expect(report.firstDivergence?.expected).toContain("step '分析' runs tool 'analyzer' on [");
    expect(report.firstDivergence?.actual).toContain(
      "step '分析' runs tool 'region_analyzer' on [",
    );
  });

  it('a linear pipeline whose step may no longer run in parallel behaves the same', async () => {
    const sink = memorySink();
    await runWorkflow(pipeline(), { source: 'sales.csv' }, { trace: sink });
    const alone = loadWorkflow(
      readFileSync(file, 'utf8').replace('parallel: true #', 'parallel: false #'),
      { file, tools: pipelineTools },
    );
    const report = await rerunTrace(sink.events, alone, { liveTools: true });
    expect(report.differences).toEqual([]);
  });
});
