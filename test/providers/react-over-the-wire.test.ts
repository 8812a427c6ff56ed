import { run, stream, type LanguageModel, type TraceEvent } from '@agent-trace/core';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { anthropicHandlers, openaiHandlers } from '@agent-trace/testing/msw';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { questions } from '../../examples/react-runtime/questions.js';
import { reactRuntime } from '../../examples/react-runtime/runtime.js';
import { calculator } from '../../examples/react-runtime/tools/calculator.js';
import { databaseTool } from '../../examples/react-runtime/tools/database.js';
import { search } from '../../examples/react-runtime/tools/search.js';
import { useMswServer, withoutProviderDetails } from '../support/provider-wire.js';

const server = useMswServer();

const comparable = (events: TraceEvent[]) => withoutProviderDetails(events, { streamed: true });

type Served = (script: readonly FakeLLMStep[], bodies: unknown[]) => LanguageModel;

const providers: Record<string, Served> = {
  'OpenAI Chat Completions': (script, bodies) => {
    const baseURL = 'http://react-chat.llm.test/v1';
    server.use(...openaiHandlers(script, { baseURL, onRequest: body => bodies.push(body) }));
    return openai('gpt-4o-mini', { apiKey: 'test-key', baseURL });
  },
  'OpenAI Responses': (script, bodies) => {
    const baseURL = 'http://react-responses.llm.test/v1';
    server.use(...openaiHandlers(script, { baseURL, onRequest: body => bodies.push(body) }));
    return openai.responses('gpt-4o-mini', { apiKey: 'test-key', baseURL });
  },
  Anthropic: (script, bodies) => {
    const baseURL = 'http://react-anthropic.llm.test';
    server.use(...anthropicHandlers(script, { baseURL, onRequest: body => bodies.push(body) }));
    return anthropic('claude-sonnet-4-6', { apiKey: 'test-key', baseURL });
  },
};

/** Runs the runtime's questions (an action chain, a malformed answer, a degraded one) on `model`. */
async function answerAll(
  modelFor: (script: readonly FakeLLMStep[]) => LanguageModel,
  streamed: boolean,
) {
  const sink = memorySink();
  for (const question of questions) {
    const down = Promise.reject(new Error('connection refused'));
    down.catch(() => undefined);
    const runtime = reactRuntime({
      model: modelFor(question.script),
      tools: [calculator, search, databaseTool(question.databaseDown === true ? down : undefined)],
    });
    const options = { trace: sink, session: 'react-wire' };
    if (streamed) {
      const running = stream(runtime, question.text, options);
      for await (const _chunk of running);
      await running.result;
    } else await run(runtime, question.text, options);
  }
  return sink.events;
}

describe('ReAct mode over the real provider wire formats', () => {
  for (const [name, served] of Object.entries(providers)) {
    it(`gives the FakeLLM trace through ${name}, with no tool definitions sent`, async () => {
      const expected = comparable(await answerAll(script => fakeLLM(script), false));
      const bodies: unknown[] = [];
      const events = await answerAll(script => served(script, bodies), name === 'Anthropic');

      expect(comparable(events)).toEqual(expected);
      expect(bodies.length).toBe(8);
      for (const body of bodies) expect(body).not.toHaveProperty('tools');
      const stops = bodies.map(body => {
        const { stop, stop_sequences } = body as { stop?: unknown; stop_sequences?: unknown };
        return stop ?? stop_sequences;
      });
      // The Responses API takes no stop sequences; the parser refuses a made-up Observation.
      expect(new Set(stops.map(value => JSON.stringify(value)))).toEqual(
        new Set([name === 'OpenAI Responses' ? undefined : JSON.stringify(['\nObservation:'])]),
      );
    });
  }
});
