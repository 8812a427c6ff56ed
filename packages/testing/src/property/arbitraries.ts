import fc from 'fast-check';
import type { ToolCalling } from '@agent-trace/core';
import type { FakeAnswerStep, FakeScriptedStep, FakeToolCall } from '../fake-llm-step.js';
import type { Behaviour } from './behaviour.js';

/** The names a generated behaviour may call. */
export interface BehaviourVocabulary {
  /** Tools the agents have. @defaultValue [] */
  readonly toolNames?: readonly string[];
  /** Agents they may hand off to (called as `transfer_to_<name>`). @defaultValue [] */
  readonly handoffTargets?: readonly string[];
  /**
   * How the agents ask for tools: native tool calls, or ReAct text (`toolCalling: 'react'`), in
   * which case the model's steps are text: actions, answers, and every way of getting the format
   * wrong. @defaultValue 'native'
   */
  readonly toolCalling?: ToolCalling;
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

const reactLabelTexts = [
  'Thought:',
  'Action:',
  'Action Input:',
  'Observation:',
  'Final Answer:',
  '**Action**:',
  'action input :',
];

/** The text of one ReAct action: a known or unknown tool, and an input that may not be JSON. */
function reactActionArbitrary(vocabulary: BehaviourVocabulary): fc.Arbitrary<string> {
  const names = [
    ...(vocabulary.toolNames ?? []),
    ...(vocabulary.handoffTargets ?? []).map(target => `transfer_to_${target}`),
    'no_such_tool',
  ];
  const input = fc.oneof(
    fc
      .dictionary(fc.constantFrom('q', 'n', 'text', 'input'), jsonValue, { maxKeys: 2 })
      .map(value => JSON.stringify(value)),
    fc.constantFrom('{', "{'q': 1}", 'not json', '', '```json\n{}\n```'),
  );
  return fc
    .tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...names), input)
    .map(([thought, name, text]) => `Thought: ${thought}\nAction: ${name}\nAction Input: ${text}`);
}

/**
 * Hostile model text in ReAct mode: actions (known and unknown tools, inputs that are not JSON),
 * final answers, endless thoughts with no action, half-written formats, an action with a made-up
 * Observation or with a Final Answer, label soup, and plain garbage.
 */
export function reactTextArbitrary(vocabulary: BehaviourVocabulary): fc.Arbitrary<string> {
  const action = reactActionArbitrary(vocabulary);
  const final = fc
    .string({ maxLength: 20 })
    .map(answer => `Thought: done\nFinal Answer: ${answer}`);
  return fc.oneof(
    { weight: 5, arbitrary: action },
    { weight: 1, arbitrary: final },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map(thought => `Thought: ${thought}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('Thought:', 'Action:', 'Thought: hmm\nAction:', 'Final Answer'),
    },
    { weight: 1, arbitrary: action.map(text => `${text}\nObservation: 42`) },
    { weight: 1, arbitrary: fc.tuple(action, final).map(([first, last]) => `${first}\n${last}`) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.oneof(fc.constantFrom(...reactLabelTexts, '\n'), fc.string({ maxLength: 6 })), {
          maxLength: 12,
        })
        .map(parts => parts.join('')),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  );
}

/** A step that calls one tool: a native tool call, or a ReAct action. */
function callStepArbitrary(vocabulary: BehaviourVocabulary): fc.Arbitrary<FakeScriptedStep> {
  return vocabulary.toolCalling === 'react'
    ? reactActionArbitrary(vocabulary).map(text => ({ text }))
    : toolCallArbitrary(vocabulary).map(call => ({ toolCalls: [call] }));
}

/**
 * One hostile model step: tool calls (in ReAct mode: hostile ReAct text), text, an empty reply, a
 * huge reply, a 429/5xx, or a stream that drops or sends a chunk that is not JSON.
 */
export function hostileStepArbitrary(
  vocabulary: BehaviourVocabulary,
): fc.Arbitrary<FakeScriptedStep> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary:
        vocabulary.toolCalling === 'react'
          ? reactTextArbitrary(vocabulary).map(text => ({ text }))
          : fc.record({
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
  const call = callStepArbitrary(vocabulary);
  const prefix = fc.array(step, { maxLength: 4 });
  const handoffs = vocabulary.handoffTargets ?? [];
  const shapes: fc.Arbitrary<Behaviour>[] = [
    fc.record({ prefix: fc.array(step, { maxLength: 8 }), loop: fc.constant([]) }),
    fc.record({ prefix, loop: fc.array(step, { minLength: 1, maxLength: 3 }) }),
    fc.record({ prefix, loop: call.map(repeated => [repeated]) }),
    fc.record({ prefix, loop: fc.tuple(call, call) }),
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
          .map(target => [
            vocabulary.toolCalling === 'react'
              ? { text: `Action: transfer_to_${target}\nAction Input: {}` }
              : { toolCalls: [{ name: `transfer_to_${target}` }] },
          ]),
      }),
    );
  }
  return fc.oneof(...shapes);
}
