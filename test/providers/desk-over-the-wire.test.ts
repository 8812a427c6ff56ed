import { run, type TraceEvent } from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { useMswServer, withoutProviderDetails } from '../support/provider-wire.js';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { draft } from '../../examples/document-review/draft.js';
import { liveModels } from '../../examples/document-review/live-models.js';

const server = useMswServer();

const comparable = (events: TraceEvent[]) => withoutProviderDetails(events);

describe('the demo desk over the real OpenAI wire format', () => {
  it('runs all six agents through the openai client and gives the FakeLLM trace', async () => {
    const fakeSink = memorySink();
    await run(reviewDesk(), `Review this draft: ${draft}`, { trace: fakeSink, session: 'demo' });

    const wireSink = memorySink();
    const desk = reviewDesk((agentName, script, modelId) => {
      const baseURL = `http://${agentName}.llm.test/v1`;
      server.use(...openaiHandlers(script, { baseURL }));
      return openai(modelId, { apiKey: 'test-key', baseURL });
    });
    const result = await run(desk, `Review this draft: ${draft}`, {
      trace: wireSink,
      session: 'demo',
    });

    expect(result).toMatchObject({ stopReason: 'completed', agent: 'evaluator' });
    expect(wireSink.events.find(event => event.event === 'llm_start')).toMatchObject({
      provider: 'openai.chat',
    });
    expect(comparable(wireSink.events)).toEqual(comparable(fakeSink.events));
  });
});

describe('pnpm demo --live', () => {
  it('picks OpenAI, then Anthropic, from the environment, and nothing without a key', () => {
    expect(liveModels({ OPENAI_API_KEY: 'sk-test' })?.('style', [], 'gpt-4o-mini').provider).toBe(
      'openai.chat',
    );
    expect(liveModels({ ANTHROPIC_API_KEY: 'sk-ant' })?.('style', [], 'gpt-4o-mini').provider).toBe(
      'anthropic.messages',
    );
    expect(liveModels({})).toBeUndefined();
  });
});
