/**
 * The cost of a workflow step: the same tool called N times by plain code (awaited one after
 * another, or all at once) and by a workflow (a chain of N tool steps, or one `forEach` step of N
 * items), without a trace and with an in-memory one. The tool is `add`, so what is measured is
 * the engine: deciding, filling inputs, the step and tool spans, ordering the trace. The plain code
 * gives each call a context with a signal of its own (a new `AbortController`), as a tool is called
 * in a run that can be aborted: that is most of its time (a call with one shared signal takes
 * about 0.1 µs). A workflow run that cannot be aborted makes none.
 */
import { tool } from '@agent-trace/core';
import { runWorkflow, workflow, type Workflow } from '@agent-trace/core/workflow';
import { memorySink } from '@agent-trace/trace';
import { z } from 'zod';
import { median, ratio, timeIt } from './measure.js';

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

/** The six ways, each measured in processes of its own. */
export const workflowWays = [
  'chainDirect',
  'chainWorkflow',
  'chainTraced',
  'fanDirect',
  'fanWorkflow',
  'fanTraced',
] as const;

/** One of {@link workflowWays}. */
export type WorkflowWay = (typeof workflowWays)[number];

/** The work of each way at `steps`: one run of it. */
function ways(steps: number): Record<WorkflowWay, () => Promise<unknown>> {
  const context = (index: number) => ({
    abortSignal: new AbortController().signal,
    callId: `c${index}`,
    agentName: 'bench',
    clock: { now: () => Date.now() },
  });
  const [chained, fanned] = [chain(steps), fanOut()];
  const items = Array.from({ length: steps }, (_, index) => ({ a: index, b: 1 }));
  const options = { maxConcurrency: steps };
  return {
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
  };
}

/**
 * One way, alone in this process: warmed up (ten runs, and at least 200 ms), then the median µs a
 * step of `rounds` runs. Alone, because taking turns with the others in one process, each way's
 * time depended on which ran beside it; warmed up for a time, because after one run a chain's step
 * was half again as slow as after a few hundred milliseconds, and a service runs warm.
 */
export async function measureWorkflowWay(
  steps: number,
  rounds: number,
  way: WorkflowWay,
): Promise<number> {
  const work = ways(steps)[way];
  if (work === undefined)
    throw new Error(`no way '${way}': name one of ${workflowWays.join(', ')}`);
  const warming = performance.now();
  for (let warm = 0; warm < 10 || performance.now() - warming < 200; warm++) await work();
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) times.push(await timeIt(work));
  return (median(times) * 1000) / steps;
}

/**
 * Both shapes at `steps`: each way in `processes` processes of its own (`measure` runs one), the
 * ways taking turns, so a noisy moment on the machine hits every way alike; the median of each.
 */
export async function measureWorkflowSteps(
  steps: number,
  processes: number,
  measure: (way: WorkflowWay) => Promise<number>,
): Promise<WorkflowStepsResult> {
  const times = new Map<WorkflowWay, number[]>(workflowWays.map(way => [way, []]));
  for (let round = 0; round < processes; round++)
    for (const way of workflowWays) times.get(way)?.push(await measure(way));
  const of = (way: WorkflowWay) => median(times.get(way) ?? []);
  return {
    steps,
    chain: { direct: of('chainDirect'), workflow: of('chainWorkflow'), traced: of('chainTraced') },
    fanOut: { direct: of('fanDirect'), workflow: of('fanWorkflow'), traced: of('fanTraced') },
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
