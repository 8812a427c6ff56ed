import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiSdkModel } from '@agent-trace/ai-sdk';
import { fakeLLM, withCassette } from '@agent-trace/testing';
import type { ModelRequest } from '@agent-trace/core';
import { generateText, isStepCount, Output, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => Promise.resolve({ city, celsius: city === 'Oslo' ? -3 : 18 }),
});

/** A script for a weather agent: two tool calls over two steps, then the answer. */
const weatherScript = (seen: ModelRequest[] = []) =>
  fakeLLM([
    request => {
      seen.push(request);
      return {
        toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }],
        usage: { promptTokens: 40, completionTokens: 8 },
      };
    },
    { toolCalls: [{ name: 'weather', args: { city: 'Rome' } }] },
    { text: 'Oslo is at -3 °C, Rome at 18 °C.' },
  ]);

describe('a FakeLLM script as the AI SDK language model', () => {
  it('drives generateText through tool calls over several steps, offline', async () => {
    const seen: ModelRequest[] = [];
    const fake = weatherScript(seen);
    const result = await generateText({
      model: aiSdkModel(fake, { agent: 'forecaster' }),
      system: 'Answer with the weather tool.',
      tools: { weather },
      stopWhen: isStepCount(5),
      prompt: 'How cold is Oslo compared with Rome?',
    });
    expect(result.text).toBe('Oslo is at -3 °C, Rome at 18 °C.');
    expect(result.steps).toHaveLength(3);
    expect(result.steps[0]?.toolResults.map(each => each.output)).toEqual([
      { city: 'Oslo', celsius: -3 },
    ]);
    expect(result.steps[0]?.usage.inputTokens).toBe(40);
    // What the AI SDK sent, as the script saw it: instructions, tools, the tool's result.
    const second = fake.calls[1]!;
    expect(second.agentName).toBe('forecaster');
    expect(second.instructions).toBe('Answer with the weather tool.');
    expect(second.toolNames).toEqual(['weather']);
    expect(seen[0]?.tools[0]).toMatchObject({
      name: 'weather',
      description: 'The weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    });
    expect(seen[0]?.messages).toEqual([
      { role: 'user', content: 'How cold is Oslo compared with Rome?' },
    ]);
    expect(second.messages.at(-1)).toMatchObject({
      role: 'tool',
      toolName: 'weather',
      content: '{"city":"Oslo","celsius":-3}',
      isError: false,
    });
    expect(fake.remainingSteps).toBe(0);
  });

  it('drives streamText: text and tool calls arrive as stream parts', async () => {
    const result = streamText({
      model: aiSdkModel(weatherScript()),
      tools: { weather },
      stopWhen: isStepCount(5),
      prompt: 'Oslo and Rome?',
    });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Oslo is at -3 °C, Rome at 18 °C.');
    const steps = await result.steps;
    expect(steps.map(step => step.toolCalls.map(call => call.input))).toEqual([
      [{ city: 'Oslo' }],
      [{ city: 'Rome' }],
      [],
    ]);
  });

  it("retries a scripted 429 as the AI SDK retries a provider's, generateText and streamText alike; a 400 is not retried", async () => {
    const limited = () =>
      fakeLLM([{ error: { status: 429, retryAfterMs: 5 } }, { text: 'Second time lucky.' }]);
    const generated = limited();
    const { text } = await generateText({ model: aiSdkModel(generated), prompt: 'Hi' });
    expect(text).toBe('Second time lucky.');
    expect(generated.calls).toHaveLength(2);
    const streamedModel = limited();
    const streamed = streamText({ model: aiSdkModel(streamedModel), prompt: 'Hi' });
    expect(await streamed.text).toBe('Second time lucky.');
    expect(streamedModel.calls).toHaveLength(2);
    const refused = fakeLLM([{ error: { status: 400 } }], { allowUnusedSteps: true });
    await expect(generateText({ model: aiSdkModel(refused), prompt: 'Hi' })).rejects.toMatchObject({
      name: 'AI_APICallError',
      statusCode: 400,
      isRetryable: false,
    });
    expect(refused.calls).toHaveLength(1);
  });

  it('keeps the script strict: a call past its last step fails the run, and says so', async () => {
    const fake = fakeLLM([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }], {
      allowUnusedSteps: true,
    });
    await expect(
      generateText({
        model: aiSdkModel(fake),
        tools: { weather },
        stopWhen: isStepCount(5),
        prompt: 'Oslo?',
      }),
    ).rejects.toThrow(/FakeLLM 'fake-model' was called a 2nd time/);
    // Steps the agent never asked for are reported too (after every test, by the Vitest setup).
    const long = fakeLLM([{ text: 'Cold.' }, { text: 'never asked' }], { allowUnusedSteps: true });
    await generateText({ model: aiSdkModel(long), prompt: 'Oslo?' });
    expect(() => long.assertComplete()).toThrow(/1 unused step/);
  });

  it('answers structured output from the script, with the schema the AI SDK asked for', async () => {
    const fake = fakeLLM([{ text: '{"city":"Oslo","cold":true}' }]);
    const { output } = await generateText({
      model: aiSdkModel(fake),
      output: Output.object({ schema: z.object({ city: z.string(), cold: z.boolean() }) }),
      prompt: 'Is Oslo cold?',
    });
    expect(output).toEqual({ city: 'Oslo', cold: true });
    expect(fake.calls[0]?.responseFormat?.schema).toMatchObject({
      properties: { city: { type: 'string' }, cold: { type: 'boolean' } },
    });
  });

  it('replays a cassette: the recorded answers, no model called', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'agent-trace-ai-sdk-')), 'weather.cassette.jsonl');
    const ask = (model: ReturnType<typeof aiSdkModel>) =>
      generateText({
        model,
        tools: { weather },
        stopWhen: isStepCount(5),
        prompt: 'Oslo and Rome?',
      });
    const recorded = await ask(aiSdkModel(withCassette(weatherScript(), path, { mode: 'record' })));
    const silent = fakeLLM([], { onUnexpectedCall: 'error' });
    const replayed = await ask(aiSdkModel(withCassette(silent, path, { mode: 'replay' })));
    expect(replayed.text).toBe(recorded.text);
    expect(replayed.steps.map(step => step.toolCalls.map(call => call.input))).toEqual(
      recorded.steps.map(step => step.toolCalls.map(call => call.input)),
    );
    expect(silent.calls).toHaveLength(0);
  });
});
