import fc from 'fast-check';
import type { FakeAnswerStep, FakeScriptedStep, FakeToolCall } from '../fake-llm-step.js';
import type { Behaviour } from './behaviour.js';

/** The names a generated behaviour may call. */
export interface BehaviourVocabulary {
  /** Tools the agents have. @defaultValue [] */
  readonly toolNames?: readonly string[];
  /** Agents they may hand off to (called as `transfer_to_<name>`). @defaultValue [] */
  readonly handoffTargets?: readonly string[];
}

const jsonValue = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 5 }),
  fc.boolean(),
);

/** A tool call: to a known tool with arbitrary (often invalid) arguments, an unknown tool, or malformed JSON. */
export function toolCallArbitrary(vocabulary: BehaviourVocabulary): fc.Arbitrary<FakeToolCall> {
  const known = vocabulary.toolNames ?? [];
  const handoffs = (vocabulary.handoffTargets ?? []).map(target => `transfer_to_${target}`);
  const named = [...known, ...handoffs];
  const options: fc.Arbitrary<FakeToolCall>[] = [
    fc.record({
      name: fc.constantFrom('no_such_tool', 'transfer_to_nobody'),
      args: fc.constant({}),
    }),
  ];
  if (named.length > 0) {
    options.push(
      fc.record({
        name: fc.constantFrom(...named),
        args: fc.dictionary(fc.constantFrom('q', 'n', 'text', 'input'), jsonValue, { maxKeys: 2 }),
      }),
      fc.record({
        name: fc.constantFrom(...named),
        argumentsText: fc.constantFrom('{', '[1,', 'not json', '{"a":'),
      }),
    );
  }
  return fc.oneof(...options);
}

/**
 * One hostile model step: tool calls, text, an empty reply, a huge reply, a 429/5xx, or a stream
 * that drops or sends a chunk that is not JSON.
 */
export function hostileStepArbitrary(
  vocabulary: BehaviourVocabulary,
): fc.Arbitrary<FakeScriptedStep> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        toolCalls: fc.array(toolCallArbitrary(vocabulary), { minLength: 1, maxLength: 3 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ text: fc.string({ maxLength: 20 }) }) },
    { weight: 1, arbitrary: fc.constant<FakeAnswerStep>({}) },
    { weight: 1, arbitrary: fc.constant<FakeAnswerStep>({ text: 'x'.repeat(20_000) }) },
    {
      weight: 1,
      arbitrary: fc.record<FakeAnswerStep>({
        text: fc.constant('one two'),
        cutAfterDeltas: fc.integer({ min: 0, max: 1 }),
        cutAs: fc.constantFrom('dropped', 'malformed_chunk'),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        error: fc.record(
          {
            status: fc.constantFrom(429, 500, 502, 503),
            retryAfterMs: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: undefined }),
          },
          { requiredKeys: ['status'] },
        ),
      }),
    },
  );
}

/**
 * A hostile behaviour: endless tool calls, the same call repeated, oscillation between two calls,
 * handoff ping-pong, bursts of 429/5xx, or a finite script of anything hostile.
 */
export function behaviourArbitrary(vocabulary: BehaviourVocabulary = {}): fc.Arbitrary<Behaviour> {
  const step = hostileStepArbitrary(vocabulary);
  const call = toolCallArbitrary(vocabulary);
  const prefix = fc.array(step, { maxLength: 4 });
  const handoffs = vocabulary.handoffTargets ?? [];
  const shapes: fc.Arbitrary<Behaviour>[] = [
    fc.record({ prefix: fc.array(step, { maxLength: 8 }), loop: fc.constant([]) }),
    fc.record({ prefix, loop: fc.array(step, { minLength: 1, maxLength: 3 }) }),
    fc.record({ prefix, loop: call.map(repeated => [{ toolCalls: [repeated] }]) }),
    fc.record({
      prefix,
      loop: fc
        .tuple(call, call)
        .map(([first, second]) => [{ toolCalls: [first] }, { toolCalls: [second] }]),
    }),
    fc.record({
      prefix: fc.array(fc.record({ error: fc.record({ status: fc.constantFrom(429, 503) }) }), {
        minLength: 1,
        maxLength: 6,
      }),
      loop: fc.array(step, { maxLength: 2 }),
    }),
  ];
  if (handoffs.length > 0) {
    shapes.push(
      fc.record({
        prefix,
        loop: fc
          .constantFrom(...handoffs)
          .map(target => [{ toolCalls: [{ name: `transfer_to_${target}` }] }]),
      }),
    );
  }
  return fc.oneof(...shapes);
}
