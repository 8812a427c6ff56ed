/**
 * A generated program as today's code: its agents built from the spec, with one change planted
 * when asked. Building the same program twice gives the same code (fresh state, same scripts), as
 * a module loaded again would.
 */
import {
  agent,
  tool,
  toolError,
  type AnyAgent,
  type AnyTool,
  type LanguageModel,
} from '@agent-trace/core';
import { cachedModel } from '@agent-trace/core/cache';
import type { Guardrail } from '@agent-trace/core/guardrail';
import { ruleRouter } from '@agent-trace/core/router';
import type { Workflow } from '@agent-trace/core/workflow';
import { cassette, fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';
import type { PlanTarget } from '@agent-trace/trace';
import { buildPlan } from './build-plan.js';
import { buildWorkflow } from './build-workflow.js';
import type { AgentSpec, Outcome, Program, SchemaKind, ToolSpec } from './program.js';
import { offered, scriptedStep } from './scripted-steps.js';

/**
 * A change the generator plants in a program's code, which a rerun must catch where it first
 * shows. (A changed turn of the conversation is planted in the rerun's history instead.)
 */
export type PlantedChange =
  | 'instructions'
  | 'tool description'
  | 'tool removed'
  | 'schema default'
  | 'model name'
  | 'model setting'
  | 'step limit'
  | 'breaker threshold'
  | 'guardrail action'
  | 'feature option'
  | 'request rewrite';

/** How a program is built: the change planted, a hook on the entry's model calls, its cassette. */
export interface BuildOptions {
  readonly change?: PlantedChange;
  /** Called as the entry's model is asked for its n-th answer (from 1). */
  readonly onEntryCall?: (call: number) => void;
  /** The cassette the entry's model answers from (`cassette` programs). */
  readonly tape?: { readonly path: string; readonly mode: 'record' | 'replay' };
}

/** The zod input of a tool of `kind`; `changed` moves its default. */
function schemaOf(kind: SchemaKind, changed: boolean): z.ZodType {
  switch (kind) {
    case 'plain':
      return z.object({ q: z.string() });
    case 'default':
      return z.object({ q: z.string(), limit: z.number().default(changed ? 6 : 5) });
    case 'transform':
      return z.object({ q: z.string().transform(text => text.toUpperCase()) });
    case 'optional':
      return z.object({ q: z.string(), page: z.number().optional() });
    case 'refine':
      return z.object({ q: z.string() }).refine(value => value.q.length < 40, 'q is too long');
    case 'preprocess':
      return z.object({
        n: z.preprocess(value => (typeof value === 'string' ? Number(value) : value), z.number()),
      });
    case 'union':
      return z.object({ id: z.union([z.string(), z.number()]) });
    case 'discriminated':
      return z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('city'), name: z.string() }),
        z.object({ kind: z.literal('zip'), code: z.string() }),
      ]);
  }
}

/** Waits `ms` as a slow service does, giving up when `signal` aborts. */
const wait = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** What a tool gives for `outcome`. */
export async function give(outcome: Outcome, name: string, signal: AbortSignal): Promise<unknown> {
  switch (outcome.kind) {
    case 'throw':
      throw new Error(`${name} is down`);
    case 'throw-string':
      // A user's code throws what it likes.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw `${name}: a plain string thrown`;
    case 'refuse':
      throw toolError(`${name} has no such record`);
    case 'slow':
      await wait(outcome.ms, signal);
      return `${name} answered late`;
    case 'value':
      return valueOf(outcome.value, name);
  }
}

function valueOf(kind: Extract<Outcome, { kind: 'value' }>['value'], name: string): unknown {
  switch (kind) {
    case 'text':
      return `${name}: done`;
    case 'object':
      return { name, n: 1, list: [1, 2], flag: true };
    case 'number':
      return 42;
    case 'date':
      return new Date(Date.UTC(2020, 0, 1));
    case 'unicode':
      return '注文 ✓ Zürich 🚆 \u2028 end';
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'big':
      return 'x'.repeat(1_000_000);
    case 'bigint':
      return 10n;
    case 'nested':
      return { a: { b: { c: [1, { d: 'e', f: null }] } } };
    case 'map':
      return new Map<unknown, unknown>([
        [name, { n: 1 }],
        [2, new Set(['x'])],
      ]);
    case 'set':
      return new Set([name, 1, { n: 2 }]);
    case 'sparse':
      // eslint-disable-next-line no-sparse-arrays
      return [1, , 3, , { name }];
  }
}

function buildTool(
  spec: ToolSpec,
  change: PlantedChange | undefined,
  first: boolean,
  needsApproval: boolean,
): AnyTool {
  let calls = 0;
  return tool({
    ...(needsApproval ? { needsApproval: true } : {}),
    name: spec.name,
    description:
      change === 'tool description' && first
        ? `${spec.name}, in other words`
        : `${spec.name} looks things up`,
    input: schemaOf(spec.schema, change === 'schema default'),
    ...(spec.timeoutMs === undefined ? {} : { timeoutMs: spec.timeoutMs }),
    execute: (_input, { abortSignal }) => {
      const outcome = spec.outcomes[Math.min(calls, spec.outcomes.length - 1)] as Outcome;
      calls++;
      return give(outcome, spec.name, abortSignal);
    },
  });
}

function guardrailsOf(kind: AgentSpec['guardrail'], blocks = false): Record<string, Guardrail[]> {
  const warn: Guardrail = {
    name: 'careful',
    // Planted: the guardrail's action turned from warn to block.
    check: () => ({ verdict: blocks ? 'block' : 'warn', reason: 'careful' }),
  };
  const block = (needle: string): Guardrail => ({
    name: 'no_' + needle.toLowerCase(),
    check: ({ text }) =>
      text.includes(needle)
        ? { verdict: 'block', reason: `mentions ${needle}` }
        : { verdict: 'allow' },
  });
  switch (kind) {
    case 'none':
      return {};
    case 'input-warn':
      return { input: [warn] };
    case 'input-block':
      return { input: [block('7')] };
    case 'output-warn':
      return { output: [warn] };
    case 'tool-warn':
      return { tool: [warn] };
    case 'tool-block':
      return { tool: [block('Paris')] };
  }
}

/** The model of agent `index`: its script, as the entry a cassette's answers when it has one. */
function modelOf(program: Program, index: number, options: BuildOptions): LanguageModel {
  const spec = program.agents[index] as AgentSpec;
  const entry = index === 0;
  const planted = entry ? options.change : undefined;
  const names = offered(program, index);
  const { onEntryCall } = options;
  const steps = spec.script.map(step => scriptedStep(step, names, spec));
  const temperature = planted === 'model setting' ? 0.95 : spec.temperature;
  const model = fakeLLM(
    steps.map((step, position) =>
      entry && onEntryCall !== undefined
        ? () => {
            onEntryCall(position + 1);
            return step;
          }
        : step,
    ),
    {
      allowUnusedSteps: true,
      ...(planted === 'model name' ? { modelId: 'fake-model-2' } : {}),
      ...(temperature === undefined ? {} : { settings: { temperature } }),
    },
  );
  const { tape } = options;
  if (!entry || program.cassette !== true || tape === undefined) return model;
  return cachedModel(model, { cache: cassette(tape.path, { mode: tape.mode }), mode: tape.mode });
}

/** Agent `index` as today's code, the ones it asks and hands off to already built. */
function buildAgent(
  program: Program,
  index: number,
  built: readonly AnyAgent[],
  options: BuildOptions,
): AnyAgent {
  const spec = program.agents[index] as AgentSpec;
  const planted = index === 0 ? options.change : undefined;
  const tools = spec.tools
    .map((each, position) =>
      buildTool(each, planted, position === 0, position === 0 && spec.approval !== undefined),
    )
    .filter((_, position) => !(planted === 'tool removed' && position === 0));
  const names = offered(program, index);
  return agent({
    name: spec.name,
    description: `${spec.name} helps`,
    instructions:
      planted === 'instructions'
        ? `${spec.instructions} Always answer in French.`
        : spec.instructions,
    model: modelOf(program, index, options),
    ...(spec.fallback === undefined
      ? {}
      : {
          fallbackModel: fakeLLM(
            spec.fallback.map(step => scriptedStep(step, names, spec)),
            { allowUnusedSteps: true, modelId: 'fake-fallback' },
          ),
        }),
    tools: [...tools, ...spec.asTools.map(other => (built[other] as AnyAgent).asTool())],
    handoffs: spec.handoffs.map(other => built[other] as AnyAgent),
    limits: { maxSteps: planted === 'step limit' ? 1 : spec.maxSteps },
    retry: { modelAttempts: spec.modelAttempts, toolRetries: spec.toolRetries, baseDelayMs: 1000 },
    circuitBreaker:
      spec.breaker === false
        ? false
        : {
            failureThreshold: spec.breaker + (planted === 'breaker threshold' ? 10 : 0),
            scope: spec.breakerShared === true ? 'agent' : 'run',
          },
    guardrails: guardrailsOf(spec.guardrail, planted === 'guardrail action'),
    ...(spec.structured === true ? { output: z.object({ answer: z.string() }) } : {}),
    ...(spec.react === true ? { toolCalling: 'react' as const } : {}),
  });
}

/** The program's agents as today's code, in the program's order. */
export function buildAgents(program: Program, options: BuildOptions = {}): AnyAgent[] {
  const built: AnyAgent[] = [];
  for (let index = program.agents.length - 1; index >= 0; index--)
    built[index] = buildAgent(program, index, built, options);
  return built;
}

/**
 * Today's code of `program`, with `options.change` planted in its entry agent: the entry agent, a
 * rule router over the agents, a workflow of them, or a planner whose plans run them.
 */
export function buildProgram(
  program: Program,
  options: BuildOptions = {},
): AnyAgent | Workflow | PlanTarget {
  const agents = buildAgents(program, options);
  if (program.workflow !== undefined) return buildWorkflow(program.workflow, agents);
  if (program.plan !== undefined) return buildPlan(program.plan, agents);
  const [entry] = agents;
  if (program.router !== true || entry === undefined) return entry as AnyAgent;
  return ruleRouter([[/order|Paris/i, entry.name]], {
    agents,
    fallback: (agents.at(-1) as AnyAgent).name,
  });
}

/** The cassette a `cassette` program's entry answers from, beside its recording `file`. */
export const tapeOf = (file: string): string => `${file}.tape.jsonl`;

/** How the program's code is built to rerun its recording `file` (with `change`, when planted). */
export function rerunBuild(program: Program, file: string, change?: PlantedChange): BuildOptions {
  return {
    ...(change === undefined ? {} : { change }),
    ...(program.cassette === true ? { tape: { path: tapeOf(file), mode: 'replay' as const } } : {}),
  };
}
