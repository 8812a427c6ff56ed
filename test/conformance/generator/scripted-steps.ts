/**
 * A generated agent's script as its FakeLLM plays it: native tool calls, or the same asked in
 * ReAct text (Thought / Action / Action Input, one action an answer).
 */
import type { FakeScriptedStep } from '@agent-trace/testing';
import type { AgentSpec, CallSpec, Program, SchemaKind, StepSpec } from './program.js';

const words = ['Paris', 'refund', '注文', 'ok', 'Zürich 🚆', 'a "quoted" word', ''];

/** The word a call's seed picks. */
export const word = (seed: number): string => words[seed % words.length] as string;

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

type Offered = ReturnType<typeof offered>;

/** The tool calls of a `calls` step: by name, with the arguments the call's form picks. */
function callsOf(calls: readonly CallSpec[], names: Offered): { name: string; args?: unknown }[] {
  return calls.map(call => {
    const target = names[call.tool];
    if (target === undefined) return { name: 'no_such_tool', args: {} };
    if (target.schema !== undefined)
      return { name: target.name, args: argumentsFor(target.schema, call) };
    return target.name.startsWith('transfer_to_')
      ? { name: target.name }
      : { name: target.name, args: { input: word(call.seed) } };
  });
}

/** A step of the script as FakeLLM takes it, for an agent that calls tools natively. */
function nativeStep(step: StepSpec, names: Offered): FakeScriptedStep {
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
      return { toolCalls: callsOf(step.calls, names) };
  }
}

/** The same step in ReAct text: the first call as its Action, a text as the Final Answer. */
function reactStep(step: StepSpec, names: Offered): FakeScriptedStep {
  switch (step.kind) {
    case 'text':
      return { text: `Thought: I know it.\nFinal Answer: ${step.text}` };
    case 'empty':
      return { text: '' };
    case 'fault':
      return { error: { status: step.status, message: `HTTP ${step.status}` } };
    case 'malformed':
      return { text: `Thought: I will look.\nAction: ${names[0]?.name ?? 'lookup'}` };
    case 'calls': {
      const [first] = callsOf(step.calls, names);
      const input = JSON.stringify(first?.args ?? {});
      return { text: `Thought: I need a tool.\nAction: ${first?.name}\nAction Input: ${input}` };
    }
  }
}

/** A step of agent `spec`'s script as FakeLLM takes it. */
export function scriptedStep(step: StepSpec, names: Offered, spec: AgentSpec): FakeScriptedStep {
  return spec.react === true ? reactStep(step, names) : nativeStep(step, names);
}
