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
  ToolCallError,
  type RunOptions,
} from '@agent-trace/core';
import type { Guardrail } from '@agent-trace/core/guardrail';
import { standardFeatures, type Feature } from '@agent-trace/core/features';
import { fakeLLM, type FakeScriptedStep } from '@agent-trace/testing';
import { z } from 'zod';
import type {
  AgentSpec,
  CallSpec,
  Outcome,
  Program,
  SchemaKind,
  StepSpec,
  ToolSpec,
} from './program.js';

/** A change the generator plants in a program, which a rerun must catch where it first shows. */
export type PlantedChange =
  | 'instructions'
  | 'tool description'
  | 'tool removed'
  | 'schema default'
  | 'model name'
  | 'breaker threshold'
  | 'guardrail action';

const words = ['Paris', 'refund', '注文', 'ok', 'Zürich 🚆', 'a "quoted" word', ''];
const word = (seed: number): string => words[seed % words.length] as string;

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

/** The arguments the model sends a tool of `kind`: all fields, the fewest, or wrong ones. */
export function argumentsFor(kind: SchemaKind, { form, seed }: CallSpec): unknown {
  const q = word(seed);
  const forms: Record<SchemaKind, readonly [unknown, unknown, unknown]> = {
    plain: [{ q }, { q }, {}],
    default: [{ q, limit: 3 }, { q }, { limit: 'x' }],
    transform: [{ q }, { q }, { q: 5 }],
    optional: [{ q, page: 2 }, { q }, { page: 'x' }],
    refine: [{ q }, { q }, { q: 'x'.repeat(50) }],
    preprocess: [{ n: 3 }, { n: '4' }, { n: 'abc' }],
    union: [{ id: q }, { id: seed }, { id: true }],
    discriminated: [{ kind: 'city', name: q }, { kind: 'zip', code: '75' }, { kind: 'x' }],
  };
  return forms[kind][form];
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
async function give(outcome: Outcome, name: string, signal: AbortSignal): Promise<unknown> {
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

/** The names an agent offers the model, in order: its tools, the agents it asks, its handoffs. */
export function offered(program: Program, index: number): { name: string; schema?: SchemaKind }[] {
  const spec = program.agents[index] as AgentSpec;
  return [
    ...spec.tools.map(each => ({ name: each.name, schema: each.schema })),
    ...spec.asTools.map(other => ({ name: (program.agents[other] as AgentSpec).name })),
    ...spec.handoffs.map(other => ({
      name: `transfer_to_${(program.agents[other] as AgentSpec).name}`,
    })),
  ];
}

/** A step of the script as FakeLLM takes it. */
function scriptedStep(step: StepSpec, names: ReturnType<typeof offered>): FakeScriptedStep {
  switch (step.kind) {
    case 'text':
      return { text: step.text };
    case 'empty':
      return { text: '' };
    case 'fault':
      return { error: { status: step.status, message: `HTTP ${step.status}` } };
    case 'malformed':
      return { toolCalls: [{ name: names[0]?.name ?? 'lookup', argumentsText: '{not json' }] };
    case 'calls':
      return {
        toolCalls: step.calls.map(call => {
          const target = names[call.tool];
          if (target === undefined) return { name: 'no_such_tool', args: {} };
          if (target.schema !== undefined)
            return { name: target.name, args: argumentsFor(target.schema, call) };
          return target.name.startsWith('transfer_to_')
            ? { name: target.name }
            : { name: target.name, args: { input: word(call.seed) } };
        }),
      };
  }
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

/** Today's code of `program`, with `change` planted in its entry agent. */
export function buildProgram(
  program: Program,
  change?: PlantedChange,
  onEntryCall?: (index: number) => void,
): AnyAgent {
  const built: AnyAgent[] = [];
  for (let index = program.agents.length - 1; index >= 0; index--) {
    const spec = program.agents[index] as AgentSpec;
    const entry = index === 0;
    const planted = entry ? change : undefined;
    const tools = spec.tools
      .map((each, position) =>
        buildTool(each, planted, position === 0, position === 0 && spec.approval !== undefined),
      )
      .filter((_, position) => !(planted === 'tool removed' && position === 0));
    const names = offered(program, index);
    const steps = spec.script.map(step => scriptedStep(step, names));
    const model = fakeLLM(
      steps.map((step, position) =>
        entry && onEntryCall !== undefined
          ? () => {
              onEntryCall(position + 1);
              return step;
            }
          : step,
      ),
      { allowUnusedSteps: true, ...(planted === 'model name' ? { modelId: 'fake-model-2' } : {}) },
    );
    built[index] = agent({
      name: spec.name,
      description: `${spec.name} helps`,
      instructions:
        planted === 'instructions'
          ? `${spec.instructions} Always answer in French.`
          : spec.instructions,
      model,
      ...(spec.fallback === undefined
        ? {}
        : {
            fallbackModel: fakeLLM(
              spec.fallback.map(step => scriptedStep(step, names)),
              { allowUnusedSteps: true, modelId: 'fake-fallback' },
            ),
          }),
      tools: [...tools, ...spec.asTools.map(other => (built[other] as AnyAgent).asTool())],
      handoffs: spec.handoffs.map(other => built[other] as AnyAgent),
      limits: { maxSteps: spec.maxSteps },
      retry: {
        modelAttempts: spec.modelAttempts,
        toolRetries: spec.toolRetries,
        baseDelayMs: 1000,
      },
      circuitBreaker:
        spec.breaker === false
          ? false
          : {
              failureThreshold: spec.breaker + (planted === 'breaker threshold' ? 10 : 0),
              scope: 'run',
            },
      guardrails: guardrailsOf(spec.guardrail, planted === 'guardrail action'),
      ...(spec.structured === true ? { output: z.object({ answer: z.string() }) } : {}),
    });
  }
  return built[0] as AnyAgent;
}

/**
 * A user's feature written on the public seam: each tool may be called `quota` times a run; a call
 * past it is refused with a guardrail event and an error the model reads.
 */
export function toolQuota(quota: number): Feature {
  return {
    name: 'tool-quota',
    forRun: () => {
      const used = new Map<string, number>();
      return {
        beforeToolRound(_at, calls) {
          const refused = new Map<string, ToolCallError>();
          for (const { call, attempt, record } of calls) {
            if (attempt > 1) continue;
            const count = (used.get(call.toolName) ?? 0) + 1;
            used.set(call.toolName, count);
            if (count <= quota) continue;
            const reason = `'${call.toolName}' was called more than ${quota} times`;
            record('guardrail', {
              guardrail: 'tool-quota',
              stage: 'tool',
              verdict: 'block',
              reason,
            });
            refused.set(
              call.callId,
              new ToolCallError({
                kind: 'guardrail_blocked',
                toolName: call.toolName,
                message: reason,
              }),
            );
          }
          return refused;
        },
      };
    },
  };
}

/** The run options the program runs with (its deadline, its own feature), as a module exports them. */
export function programRunOptions(program: Program): Omit<RunOptions, 'trace' | 'overrides'> {
  return {
    ...(program.timeoutMs === undefined ? {} : { timeoutMs: program.timeoutMs }),
    ...(program.quota === undefined
      ? {}
      : { features: [...standardFeatures, toolQuota(program.quota)] }),
  };
}
