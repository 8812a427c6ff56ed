import { agent, run, tool, type LanguageModel, type ModelRequest } from '@agent-trace/core';
import { StreamAssembler } from '@agent-trace/core/record';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { anthropicHandlers, openaiHandlers, type SplitPoints } from '@agent-trace/testing/msw';
import { memorySink } from '@agent-trace/trace';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useMswServer, withoutProviderDetails } from '../support/provider-wire.js';
import { z } from 'zod';

const server = useMswServer();

const request: ModelRequest = {
  instructions: 'Be brief.',
  messages: [{ role: 'user', content: 'Wetter in München?' }],
  tools: [],
  agentName: 'tester',
};
const step: FakeLLMStep = {
  text: 'Es ist sonnig in München — 21 °C ☀️.',
  toolCalls: [
    { name: 'get_weather', args: { city: 'München', unit: '°C' }, id: 'call_a' },
    { name: 'get_time', args: { tz: 'CET' }, id: 'call_b' },
  ],
  usage: { promptTokens: 20, completionTokens: 15 },
};

const providers: [
  string,
  () => LanguageModel,
  (steps: FakeLLMStep[], split: SplitPoints) => ReturnType<typeof openaiHandlers>,
][] = [
  [
    'openai chat',
    () => openai('gpt-4o-mini', { apiKey: 'k', baseURL: 'http://llm.test/v1' }),
    (steps, split) => openaiHandlers(steps, { split }),
  ],
  [
    'openai responses',
    () => openai.responses('gpt-4o-mini', { apiKey: 'k', baseURL: 'http://llm.test/v1' }),
    (steps, split) => openaiHandlers(steps, { split }),
  ],
  [
    'anthropic',
    () => anthropic('claude-sonnet-4-6', { apiKey: 'k', baseURL: 'http://llm.test' }),
    (steps, split) => anthropicHandlers(steps, { split }),
  ],
];

describe('SSE bodies split into network chunks at arbitrary byte boundaries', () => {
  for (const [name, model, handlers] of providers) {
    it(`${name}: the assembled answer never changes, whatever the split points`, async () => {
      server.use(...handlers([step], () => []));
      const expected = await model().generate(request);
      server.resetHandlers();
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
          async fractions => {
            server.resetHandlers(
              ...handlers([step], length =>
                fractions.map(fraction => Math.floor(fraction * length)),
              ),
            );
            const assembler = new StreamAssembler();
            for await (const part of model().stream(request)) assembler.add(part);
            expect(assembler.finish()).toEqual(expected);
          },
        ),
        { numRuns: 60, seed: 11 },
      );
    });
  }
});

describe('one scenario, three ways to serve it', () => {
  it('FakeLLM, OpenAI over msw and Anthropic over msw give the same normalised trace', async () => {
    const script = (): FakeLLMStep[] => [
      {
        text: 'Looking.',
        toolCalls: [
          { name: 'add', args: { a: 2, b: 3 }, id: 'call_1' },
          { name: 'add', args: { a: 4, b: 5 }, id: 'call_2' },
        ],
        usage: { promptTokens: 40, completionTokens: 12 },
      },
      {
        toolCalls: [{ name: 'add', args: { a: 'x' }, id: 'call_3' }],
        usage: { promptTokens: 70, completionTokens: 8 },
      },
      { text: '5 and 9.', usage: { promptTokens: 90, completionTokens: 4 } },
    ];
    const add = tool({
      name: 'add',
      description: 'Add',
      input: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const traceOf = async (model: LanguageModel) => {
      const sink = memorySink();
      await run(
        agent({ name: 'adder', instructions: 'Add.', model, tools: [add] }),
        'Add 2+3 and 4+5',
        { trace: sink },
      );
      return withoutProviderDetails(sink.events);
    };
    const fake = await traceOf(fakeLLM(script()));
    server.use(...openaiHandlers(script()));
    const viaOpenAI = await traceOf(
      openai('gpt-4o-mini', { apiKey: 'k', baseURL: 'http://llm.test/v1' }),
    );
    server.resetHandlers(...anthropicHandlers(script()));
    const viaAnthropic = await traceOf(
      anthropic('claude-sonnet-4-6', { apiKey: 'k', baseURL: 'http://llm.test' }),
    );
    expect(viaOpenAI).toEqual(fake);
    expect(viaAnthropic).toEqual(fake);
    expect(fake.some(event => event.event === 'tool_end' && typeof event.error === 'object')).toBe(
      true,
    );
  });
});
