import { agent, run } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';

describe("a model's reported usage", () => {
  it('is kept as whole token counts, so the trace it writes always reads back', async () => {
    const trace = memorySink();
    const model = fakeLLM([
      {
        text: 'ok',
        usage: { promptTokens: 10.6, completionTokens: -3, cacheReadTokens: Number.NaN },
      },
    ]);
    const result = await run(agent({ name: 'estimator', model }), 'hi', { trace });
    expect(result.usage).toMatchObject({ promptTokens: 11, completionTokens: 0 });
    const end = trace.events.find(event => event.event === 'llm_end');
    expect(end).toMatchObject({ tok_prompt: 11, tok_completion: 0, tok_cache_read: 0 });
    expect(validateTrace(trace.events).problems).toEqual([]);
  });
});
