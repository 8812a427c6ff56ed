/**
 * Random valid DAGs: every step ends once, runs only after its dependencies have ended, runs its
 * tool once per attempt, and the run terminates with a valid trace whose steps come in the
 * workflow's order, the same every time.
 */
import { agent, sequentialIds, stopReasons, tool, virtualClock } from '@agent-trace/core';
import {
  planAndRun,
  runWorkflow,
  workflow,
  type WorkflowStepDefinition,
} from '@agent-trace/core/workflow';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** One generated step: its dependencies (earlier indexes), behaviour and options. */
interface StepSpec {
  readonly dependsOn: number[];
  /** How many of its attempts fail before one succeeds (more than its retries: it fails). */
  readonly failures: number;
  readonly retries: number;
  readonly latencyMs: number;
  readonly condition: 'none' | 'always' | 'never' | 'dependency_completed';
  /** Runs once per item of a list of two (`forEach`). */
  readonly fanOut: boolean;
  /** `parallel: false`: runs alone, beside no other step. */
  readonly alone: boolean;
  /** Runs an agent (whose model answers, or loops into max_steps) instead of a tool. */
  readonly agent: 'none' | 'answers' | 'loops';
}

const stepSpec = (index: number): fc.Arbitrary<StepSpec> =>
  fc.record({
    dependsOn: index === 0 ? fc.constant([]) : fc.uniqueArray(fc.nat(index - 1), { maxLength: 3 }),
    failures: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 3 })),
    retries: fc.integer({ min: 0, max: 2 }),
    latencyMs: fc.constantFrom(0, 10, 50),
    condition: fc.constantFrom('none', 'none', 'always', 'never', 'dependency_completed'),
    fanOut: fc.boolean(),
    alone: fc.boolean(),
    agent: fc.constantFrom('none', 'none', 'none', 'answers', 'loops'),
  });

const dag = fc.integer({ min: 1, max: 10 }).chain(size =>
  fc.tuple(
    fc.tuple(...Array.from({ length: size }, (_, index) => stepSpec(index))),
    fc.shuffledSubarray(
      Array.from({ length: size }, (_, index) => index),
      { minLength: size, maxLength: size },
    ),
    fc.integer({ min: 1, max: 4 }),
  ),
);

/** What the tools of a run saw: their calls, and which calls had finished when each step began. */
interface ToolLog {
  readonly calls: Map<string, number>;
  readonly finished: Map<string, number>;
  /** Per step: the finished calls of every step when its first call began. */
  readonly seenAtStart: Map<string, Map<string, number>>;
  /** The tool calls going on, by step; and the steps that must run alone. */
  readonly running: Map<string, number>;
  readonly alone: Set<string>;
  /** A call that began beside another step's while one of the two must run alone. */
  readonly overlaps: string[];
}

const nameOf = (index: number) => `s${index}`;

function conditionOf(spec: StepSpec): { condition?: string } {
  if (spec.condition === 'always' || spec.condition === 'never')
    return { condition: spec.condition };
  const first = spec.dependsOn[0];
  if (spec.condition === 'dependency_completed' && first !== undefined)
    return { condition: `steps.${nameOf(first)}.status == "completed"` };
  return {};
}

/** A step's agent: it answers, or asks for a tool and so runs into max_steps; once per attempt and item. */
function stepAgent(step: string, spec: StepSpec) {
  const answer: FakeLLMStep =
    spec.agent === 'answers' ? { text: `${step} done` } : { toolCalls: [{ name: 'noop' }] };
  const noop = tool({
    name: 'noop',
    description: 'nothing',
    input: z.unknown(),
    execute: () => 'ok',
  });
  const runs = (spec.retries + 1) * (spec.fanOut ? 2 : 1);
  return agent({
    name: `agent_${step}`,
    model: fakeLLM(
      Array.from({ length: runs }, () => answer),
      { allowUnusedSteps: true },
    ),
    tools: [noop],
    limits: { maxSteps: 1 },
  });
}

function stepTool(step: string, spec: StepSpec, log: ToolLog) {
  let attempts = 0;
  return tool({
    name: `tool_${step}`,
    description: step,
    input: z.unknown(),
    execute: async (input, { clock, abortSignal }) => {
      if (!log.seenAtStart.has(step)) log.seenAtStart.set(step, new Map(log.finished));
      log.calls.set(step, (log.calls.get(step) ?? 0) + 1);
      for (const [other, count] of log.running)
        if (other !== step && count > 0 && (log.alone.has(step) || log.alone.has(other)))
          log.overlaps.push(`${step} began while ${other} ran`);
      log.running.set(step, (log.running.get(step) ?? 0) + 1);
      try {
        await clock.sleep?.(spec.latencyMs, abortSignal);
        if (++attempts <= spec.failures) throw new Error(`${step} failure ${attempts}`);
        return { step, input };
      } finally {
        log.running.set(step, (log.running.get(step) ?? 1) - 1);
        log.finished.set(step, (log.finished.get(step) ?? 0) + 1);
      }
    },
  });
}

/** The workflow of a generated DAG, written in a shuffled order, and what its tools saw. */
function build(specs: readonly StepSpec[], written: readonly number[]) {
  const log: ToolLog = {
    calls: new Map(),
    finished: new Map(),
    seenAtStart: new Map(),
    running: new Map(),
    alone: new Set(specs.flatMap((spec, index) => (spec.alone ? [nameOf(index)] : []))),
    overlaps: [],
  };
  const definitions = specs.map((spec, index): WorkflowStepDefinition => {
    const step = nameOf(index);
    const base = {
      name: step,
      dependsOn: spec.dependsOn.map(nameOf),
      retries: spec.retries,
      ...(spec.alone ? { parallel: false } : {}),
      ...(spec.fanOut ? { forEach: 'input.pair' } : { input: { step } }),
      ...conditionOf(spec),
    };
    return spec.agent === 'none'
      ? { ...base, tool: stepTool(step, spec, log) }
      : { ...base, agent: stepAgent(step, spec) };
  });
  const flow = workflow({
    name: 'random',
    steps: written.map(index => definitions[index] as WorkflowStepDefinition),
  });
  return { flow, log };
}

describe('random workflows', () => {
  it('run every step once, after its dependencies, terminate, and trace the same every time', async () => {
    await fc.assert(
      fc.asyncProperty(dag, async ([specs, written, maxConcurrency]) => {
        const runOnce = async () => {
          const { flow, log } = build(specs, written);
          const sink = memorySink();
          const result = await runWorkflow(
            flow,
            { pair: [1, 2] },
            {
              trace: sink,
              clock: virtualClock(),
              ids: sequentialIds(),
              maxConcurrency,
            },
          );
          return { result, events: sink.events, log, flow };
        };
        const { result, events, log, flow } = await runOnce();
        expect(stopReasons).toContain(result.stopReason);
        expect(['completed', 'workflow_step_failed']).toContain(result.stopReason);
        // Every step has exactly one record, and it names a known status.
        expect(result.steps.map(step => step.name).sort()).toEqual(
          flow.steps.map(step => step.name).sort(),
        );
        // A step with parallel: false ran beside no other step.
        expect(log.overlaps).toEqual([]);
        // Each step's tool ran once per attempt (per item for a forEach step), none before its
        // dependencies ended.
        for (const record of result.steps) {
          const step = flow.steps.find(candidate => candidate.name === record.name)!;
          if (step.runs.kind !== 'tool') continue;
          const calls = log.calls.get(record.name) ?? 0;
          if (record.status === 'skipped') expect(calls).toBe(0);
          else if (step.forEach === undefined) expect(calls).toBe(record.attempts);
        }
        // A step's tool began only once its dependencies' tools had made every attempt.
        for (const [step, seen] of log.seenAtStart) {
          for (const dependency of flow.steps.find(candidate => candidate.name === step)!
            .dependsOn) {
            const record = result.steps.find(candidate => candidate.name === dependency)!;
            const calls = log.calls.get(dependency);
            if (calls !== undefined) expect(seen.get(dependency)).toBe(calls);
            else
              expect(
                record.status === 'skipped' ||
                  !flow.steps.some(
                    candidate => candidate.name === dependency && candidate.runs.kind === 'tool',
                  ),
              ).toBe(true);
          }
        }
        // A step without a condition runs only when every dependency completed.
        for (const step of flow.steps) {
          const record = result.steps.find(candidate => candidate.name === step.name)!;
          const dependenciesCompleted = step.dependsOn.every(
            name => result.steps.find(candidate => candidate.name === name)?.status === 'completed',
          );
          if (step.condition === undefined && !dependenciesCompleted)
            expect(record.status).toBe('skipped');
          if (step.condition?.text === 'never') expect(record.status).toBe('skipped');
        }
        expect(validateTrace(events).problems).toEqual([]);
        // In the trace, each step starts after its dependencies' steps ended.
        const endSeq = new Map(
          events.flatMap(event =>
            event.event === 'workflow_step_end' ? [[event.name, event.seq] as const] : [],
          ),
        );
        for (const event of events) {
          if (event.event !== 'workflow_step_start') continue;
          const step = flow.steps.find(candidate => candidate.name === event.name)!;
          for (const dependency of step.dependsOn)
            expect(endSeq.get(dependency)!).toBeLessThan(event.seq);
        }
        const again = await runOnce();
        expect(again.events).toEqual(events);
      }),
      { numRuns: 200, seed: 20261123 },
    );
  });
});

/** What a hostile planner may answer: garbage, plans that do not load, plans that fail or complete. */
const plannerAnswer = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constant('workflow:\n  name: p\n  steps: []\n'),
  fc.constant('workflow:\n  name: p\n  steps:\n    - name: a\n      tool: missing\n'),
  fc.constant(
    'workflow:\n  name: p\n  steps:\n    - name: a\n      tool: ok\n      depends_on: [b]\n    - name: b\n      tool: ok\n      depends_on: [a]\n',
  ),
  fc.constant('```yaml\nworkflow:\n  name: p\n  steps:\n    - name: a\n      tool: breaks\n```'),
  fc.constant(
    'workflow:\n  name: p\n  steps:\n    - name: a\n      tool: ok\n      input: { n: 1 }\n',
  ),
  fc.constant(
    '{"workflow":{"name":"j","steps":[{"name":"a","tool":"ok"},{"name":"b","tool":"breaks","depends_on":["a"]}]}}',
  ),
);

describe('planning', () => {
  it('ends within maxPlans plans and maxReplans re-plans, with a known stop reason and a valid trace', async () => {
    const ok = tool({
      name: 'ok',
      description: 'works',
      input: z.unknown(),
      execute: () => 'fine',
    });
    const breaks = tool({
      name: 'breaks',
      description: 'fails',
      input: z.unknown(),
      execute: () => {
        throw new Error('broken');
      },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(plannerAnswer, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 2 }),
        async (answers, maxPlans, maxReplans) => {
          const model = fakeLLM(
            answers.map(text => ({ text })),
            { allowUnusedSteps: true },
          );
          const sink = memorySink();
          const result = await planAndRun(agent({ name: 'planner', model }), 'do it', {
            tools: [ok, breaks],
            maxPlans,
            maxReplans,
            trace: sink,
            clock: virtualClock(),
            ids: sequentialIds(),
          });
          expect(['completed', 'workflow_step_failed', 'plan_refused', 'error']).toContain(
            result.stopReason,
          );
          expect(result.plans.length).toBeLessThanOrEqual(maxPlans);
          expect(model.calls.length).toBe(
            result.stopReason === 'error' ? result.plans.length + 1 : result.plans.length,
          );
          const failedRuns = result.plans.filter(plan => plan.status === 'failed').length;
          expect(failedRuns).toBeLessThanOrEqual(maxReplans + 1);
          if (result.stopReason === 'plan_refused') {
            expect(result.plans).toHaveLength(maxPlans);
            expect(result.plans.at(-1)?.verdict).toBe('refused');
          }
          const plans = sink.events.filter(event => event.event === 'plan');
          expect(plans).toHaveLength(result.plans.length);
          expect(validateTrace(sink.events).problems).toEqual([]);
        },
      ),
      { numRuns: 200, seed: 20261123 },
    );
  });
});
