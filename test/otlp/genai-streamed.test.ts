/**
 * A streamed call over a provider's wire, as a backend reads it: the chat span says it streamed,
 * when its first chunk came, which server it went to, and the answer's id and the model the
 * provider says answered, and the tokens it spent reasoning; the metrics add time to first chunk and time per output chunk.
 */
import { agent, steppingClock, stream } from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { otlpSink } from '@agent-trace/trace/otlp';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../support/provider-wire.js';
import { receiver } from './otlp-fixtures.js';

const server = useMswServer();

describe('a streamed call in OpenTelemetry', () => {
  it('has its response id and model, stream, first chunk, server; and the chunk metrics', async () => {
    server.use(
      ...openaiHandlers([
        {
          text: 'Oslo is cold today, at minus three.',
          usage: { promptTokens: 12, completionTokens: 30, reasoningTokens: 20 },
        },
      ]),
    );
    const collector = await receiver();
    const sink = otlpSink({ endpoint: collector.url, serviceName: 'weather' });
    const desk = agent({
      name: 'desk',
      model: openai('gpt-4o-mini', { apiKey: 'test-key', baseURL: 'http://llm.test/v1' }),
    });
    const streaming = stream(desk, 'Is Oslo cold?', { trace: sink, clock: steppingClock() });
    for await (const _chunk of streaming);
    await streaming.result;
    await sink.shutdown();
    await collector.waitForSpans(3);

    const chat = collector.spans.find(span => span.name.startsWith('chat '))!;
    expect(chat.attributes).toMatchObject({
      'gen_ai.request.stream': true,
      'gen_ai.response.id': 'fake_1',
      'gen_ai.response.model': 'gpt-4o-mini',
      'server.address': 'llm.test',
      'server.port': 80,
      'gen_ai.usage.output_tokens': 30,
      'gen_ai.usage.reasoning.output_tokens': 20,
    });
    expect(chat.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);

    const first = await collector.waitForMetric('gen_ai.client.operation.time_to_first_chunk');
    expect(first).toMatchObject({ unit: 's', kind: 'histogram' });
    expect(first.points[0]).toMatchObject({
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini' },
      count: 1,
    });
    const perChunk = await collector.waitForMetric('gen_ai.client.operation.time_per_output_chunk');
    expect(perChunk.points[0]).toMatchObject({ count: 1 });
    expect(perChunk.points[0]!.sum).toBeGreaterThan(0);
  });
});
