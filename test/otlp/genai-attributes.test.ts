/**
 * The GenAI attributes a backend keys its views on, as exported: each chat span's whole request
 * (the conversation so far, not only its new messages), the request's settings and output type,
 * a stable agent id, and a tool's description and type.
 */
import { agent, run, tool, type LanguageModel } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { receiver } from './otlp-fixtures.js';

/** A scripted model made with sampling settings, as a provider's model reports them. */
function withSettings(model: LanguageModel): LanguageModel {
  return {
    specificationVersion: 'v1',
    provider: model.provider,
    modelId: model.modelId,
    settings: { temperature: 0.2, maxOutputTokens: 300 },
    generate: request => model.generate(request),
    stream: request => model.stream(request),
  };
}

const weather = tool({
  name: 'weather',
  description: 'The temperature in a city',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: -3 }),
});

async function exported(captureContent: boolean) {
  const collector = await receiver();
  const memory = memorySink();
  const forecaster = agent({
    name: 'forecaster',
    description: 'Says how cold a city is.',
    version: '2026-11',
    instructions: 'Use the weather tool.',
    model: withSettings(
      fakeLLM([
        { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
        { text: 'Oslo: -3 °C.' },
      ]),
    ),
    tools: [weather],
  });
  await run(forecaster, 'How cold is Oslo?', {
    trace: [memory, otlpSink({ endpoint: collector.url, captureContent })],
  });
  await collector.waitForSpans(
    memory.events.filter(event => event.event.endsWith('_start')).length,
  );
  return collector.spans;
}

describe('GenAI attributes', () => {
  it("a chat span holds the whole conversation it sent, in the conventions' shape", async () => {
    const chats = (await exported(true)).filter(span => span.name.startsWith('chat '));
    const sent = chats.map(
      span => JSON.parse(String(span.attributes['gen_ai.input.messages'])) as { role: string }[],
    );
    expect(sent.map(messages => messages.map(message => message.role))).toEqual([
      ['user'],
      ['user', 'assistant', 'tool'],
    ]);
    expect(sent[1]![0]).toEqual({
      role: 'user',
      parts: [{ type: 'text', content: 'How cold is Oslo?' }],
    });
  });

  it('carries the request settings, output type, agent id and description, tool description and type', async () => {
    const spans = await exported(false);
    const chat = spans.find(span => span.name.startsWith('chat '))!;
    expect(chat.attributes).toMatchObject({
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 300,
      'gen_ai.output.type': 'text',
    });
    // Without content capture, no messages.
    expect(chat.attributes['gen_ai.input.messages']).toBeUndefined();
    const agentSpan = spans.find(span => span.name === 'invoke_agent forecaster')!;
    expect(agentSpan.attributes['gen_ai.agent.id']).toMatch(/\S/);
    expect(agentSpan.attributes['gen_ai.agent.description']).toBe('Says how cold a city is.');
    expect(agentSpan.attributes['gen_ai.agent.version']).toBe('2026-11');
    const again = (await exported(false)).find(span => span.name === 'invoke_agent forecaster')!;
    expect(again.attributes['gen_ai.agent.id']).toBe(agentSpan.attributes['gen_ai.agent.id']);
    const toolSpan = spans.find(span => span.name === 'execute_tool weather')!;
    expect(toolSpan.attributes).toMatchObject({
      'gen_ai.tool.description': 'The temperature in a city',
      'gen_ai.tool.type': 'function',
    });
  });

  it('names the model that answered, and describes the tools that delegate and transfer', async () => {
    const collector = await receiver();
    const memory = memorySink();
    const style = agent({
      name: 'style',
      description: 'Rewrites text in house style.',
      model: fakeLLM([{ text: 'Polished.' }]),
    });
    const billing = agent({ name: 'billing', model: fakeLLM([{ text: 'Refunded.' }]) });
    const triage = agent({
      name: 'triage',
      model: fakeLLM([
        { toolCalls: [{ name: 'ask_style', args: { input: 'fix this' } }] },
        { toolCalls: [{ name: 'transfer_to_billing' }] },
      ]),
      tools: [style.asTool({ description: 'Ask the style desk' })],
      handoffs: [billing],
    });
    await run(triage, 'Refund order 7', {
      trace: [memory, otlpSink({ endpoint: collector.url })],
    });
    await collector.waitForSpans(
      memory.events.filter(event => event.event.endsWith('_start')).length,
    );
    const chat = collector.spans.find(span => span.name.startsWith('chat '))!;
    expect(chat.attributes['gen_ai.response.model']).toBe('fake-model');
    const delegation = collector.spans.filter(span =>
      span.name.startsWith('execute_tool ask_style'),
    );
    expect(delegation.length).toBeGreaterThan(0);
    for (const span of delegation)
      expect(span.attributes['gen_ai.tool.description'], span.name).toMatch(/Ask the style desk/);
    const transfer = collector.spans.find(span =>
      span.name.startsWith('execute_tool transfer_to_billing'),
    )!;
    expect(transfer.attributes['gen_ai.tool.description']).toBe(
      "Hand the conversation over to agent 'billing'.",
    );
  });

  it("a failed call's error.type is the HTTP status the provider answered with", async () => {
    const collector = await receiver();
    const memory = memorySink();
    await run(
      agent({
        name: 'desk',
        model: fakeLLM([{ error: { status: 429, retryAfterMs: 1 } }, { text: 'Later.' }]),
      }),
      'Hello?',
      { trace: [memory, otlpSink({ endpoint: collector.url })] },
    );
    await collector.waitForSpans(
      memory.events.filter(event => event.event.endsWith('_start')).length,
    );
    const failed = collector.spans.find(
      span => span.name.startsWith('chat ') && span.status.code === 'ERROR',
    );
    expect(failed?.attributes['error.type']).toBe('429');
    const recorded = memory.events.find(event => event.event === 'llm_end' && event.error);
    expect(recorded).toMatchObject({ error: { type: 'rate_limit', status: 429 } });
  });
});
