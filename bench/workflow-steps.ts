/**
 * The cost of a workflow step: the same tool called N times by plain code (awaited one after
 * another, or all at once) and by a workflow (a chain of N tool steps, or one `forEach` step of N
 * items), without a trace and with an in-memory one. The tool is `add`, so what is measured is
 * the engine: deciding, filling inputs, the step and tool spans, ordering the trace.
 */
import { tool } from '@agent-trace/core';
import { runWorkflow, workflow, type Workflow } from '@agent-trace/core/workflow';
import { memorySink } from '@agent-trace/trace';
import { z } from 'zod';
import { interleaved, ratio } from './measure.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** µs per step of each way, for a chain and a fan-out of `steps`. */
export interface WorkflowStepsResult {
  readonly steps: number;
  readonly chain: { direct: number; workflow: number; traced: number };
  readonly fanOut: { direct: number; workflow: number; traced: number };
}

function chain(steps: number): Workflow {
  return workflow({
    name: 'chain',
    steps: Array.from({ length: steps }, (_, index) => ({
      name: `s${index}`,
      tool: add,
      input: { a: index === 0 ? 0 : `\${steps.s${index - 1}.output}`, b: 1 },
      dependsOn: index === 0 ? [] : [`s${index - 1}`],
    })),
  });
}

/** One step run for each of the workflow's input items. */
function fanOut(): Workflow {
  return workflow({ name: 'fan-out', steps: [{ name: 'each', tool: add, forEach: 'input' }] });
}

/** Measures both shapes at `steps`, interleaved over `rounds`. */
export async function measureWorkflowSteps(steps = 100, rounds = 5): Promise<WorkflowStepsResult> {
  const context = (index: number) => ({
    abortSignal: new AbortController().signal,
    callId: `c${index}`,
    agentName: 'bench',
    clock: { now: () => Date.now() },
  });
  const [chained, fanned] = [chain(steps), fanOut()];
  const items = Array.from({ length: steps }, (_, index) => ({ a: index, b: 1 }));
  const options = { maxConcurrency: steps };
  const times = await interleaved(
    {
      chainDirect: async () => {
        let total = 0;
        for (let index = 0; index < steps; index++)
          total = await add.execute(add.input.parse({ a: total, b: 1 }), context(index));
      },
      chainWorkflow: () => runWorkflow(chained, null, options),
      chainTraced: () => runWorkflow(chained, null, { ...options, trace: memorySink() }),
      fanDirect: () =>
        Promise.all(
          Array.from({ length: steps }, async (_, index) =>
            add.execute(add.input.parse({ a: index, b: 1 }), context(index)),
          ),
        ),
      fanWorkflow: () => runWorkflow(fanned, items, options),
      fanTraced: () => runWorkflow(fanned, items, { ...options, trace: memorySink() }),
    },
    rounds,
  );
  const per = (ms: number) => (ms * 1000) / steps;
  return {
    steps,
    chain: {
      direct: per(times.chainDirect),
      workflow: per(times.chainWorkflow),
      traced: per(times.chainTraced),
    },
    fanOut: {
      direct: per(times.fanDirect),
      workflow: per(times.fanWorkflow),
      traced: per(times.fanTraced),
    },
  };
}

/** The benchmark's table. */
export function formatWorkflowSteps(result: WorkflowStepsResult): string {
  const row = (shape: string, times: WorkflowStepsResult['chain']) =>
    `${shape.padEnd(26)}${times.direct.toFixed(1).padStart(10)}${times.workflow.toFixed(1).padStart(12)}${times.traced.toFixed(1).padStart(14)}${ratio(times.workflow / times.direct).padStart(14)}${ratio(times.traced / times.direct).padStart(16)}`;
  return [
    `${'shape'.padEnd(26)}${'code µs'.padStart(10)}${'workflow µs'.padStart(12)}${'+ memory µs'.padStart(14)}${'workflow/code'.padStart(14)}${'+memory/code'.padStart(16)}`,
    row(`chain of ${result.steps} steps`, result.chain),
    row(`1 step × ${result.steps} items`, result.fanOut),
  ].join('\n');
}
