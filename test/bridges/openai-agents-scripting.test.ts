import { openaiAgentsModel } from '@agent-trace/openai-agents';
import { fakeLLM } from '@agent-trace/testing';
import { Agent, run, setTracingDisabled, tool } from '@openai/agents';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

beforeAll(() => setTracingDisabled(true));

const weather = tool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Oslo' ? -3 : 18 }),
});

describe('a FakeLLM script as the OpenAI Agents SDK model', () => {
  it('keeps call ids unique across scripts: the agent handed to sees the whole history grow', async () => {
    const specialistScript = fakeLLM([
      { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
      { toolCalls: [{ name: 'weather', args: { city: 'Rome' } }] },
      { text: 'Oslo -3 °C, Rome 18 °C.' },
    ]);
    const specialist = new Agent({
      name: 'specialist',
      tools: [weather],
      model: openaiAgentsModel(specialistScript, { agent: 'specialist' }),
    });
    const triageScript = fakeLLM([
      { toolCalls: [{ name: 'lookup', args: {} }] },
      { toolCalls: [{ name: 'transfer_to_specialist', args: {} }] },
    ]);
    const lookup = tool({
      name: 'lookup',
      description: 'Looks the customer up',
      parameters: z.object({}),
      execute: () => 'a customer in Oslo',
    });
    const triage = Agent.create({
      name: 'triage',
      tools: [lookup],
      handoffs: [specialist],
      model: openaiAgentsModel(triageScript, { agent: 'triage' }),
    });
    const result = await run(triage, 'Weather for my trip?');
    expect(result.finalOutput).toBe('Oslo -3 °C, Rome 18 °C.');
    // The specialist's ids go on from the conversation's (call_3_1, call_4_1), not call_1_1 again:
    // with a repeated id the SDK dropped the earlier history (5, 4, 4 messages).
    expect(specialistScript.calls.map(call => call.messages.length)).toEqual([5, 7, 9]);
    const ids = [...triageScript.calls, ...specialistScript.calls]
      .flatMap(call => call.messages)
      .flatMap(message =>
        message.role === 'assistant' ? message.toolCalls.map(c => c.callId) : [],
      );
    expect(new Set(ids)).toEqual(new Set(['call_1_1', 'call_2_1', 'call_3_1', 'call_4_1']));
  });

  it('runs an agent through its tools over several turns, offline', async () => {
    const script = fakeLLM([
      {
        toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }],
        usage: { promptTokens: 30, completionTokens: 6 },
      },
      { toolCalls: [{ name: 'weather', args: { city: 'Rome' } }] },
      { text: 'Oslo is at -3 °C, Rome at 18 °C.' },
    ]);
    const forecaster = new Agent({
      name: 'forecaster',
      instructions: 'Use the weather tool.',
      tools: [weather],
      model: openaiAgentsModel(script, { agent: 'forecaster' }),
    });
    const result = await run(forecaster, 'Oslo and Rome?');
    expect(result.finalOutput).toBe('Oslo is at -3 °C, Rome at 18 °C.');
    const second = script.calls[1]!;
    expect(second.agentName).toBe('forecaster');
    expect(second.instructions).toBe('Use the weather tool.');
    expect(second.toolNames).toEqual(['weather']);
    expect(second.messages).toEqual([
      { role: 'user', content: 'Oslo and Rome?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { callId: expect.any(String), toolName: 'weather', argumentsText: '{"city":"Oslo"}' },
        ],
      },
      {
        role: 'tool',
        callId: expect.any(String),
        toolName: 'weather',
        content: '{"city":"Oslo","celsius":-3}',
        isError: false,
      },
    ]);
    expect(result.state.usage.inputTokens).toBeGreaterThanOrEqual(30);
  });

  it('runs a handoff: the triage agent transfers, the specialist answers', async () => {
    const specialist = new Agent({
      name: 'specialist',
      instructions: 'Answer weather questions.',
      tools: [weather],
      model: openaiAgentsModel(
        fakeLLM([
          { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
          { text: 'Cold: -3 °C.' },
        ]),
        { agent: 'specialist' },
      ),
    });
    const triageScript = fakeLLM([{ toolCalls: [{ name: 'transfer_to_specialist', args: {} }] }]);
    const triage = Agent.create({
      name: 'triage',
      instructions: 'Send weather questions to the specialist.',
      handoffs: [specialist],
      model: openaiAgentsModel(triageScript, { agent: 'triage' }),
    });
    const result = await run(triage, 'Is Oslo cold?');
    expect(result.finalOutput).toBe('Cold: -3 °C.');
    expect(result.lastAgent?.name).toBe('specialist');
    expect(triageScript.calls[0]?.toolNames).toEqual(['transfer_to_specialist']);
  });

  it('runs an agent used as a tool: the manager asks, the researcher answers inside the tool call', async () => {
    const researcher = new Agent({
      name: 'researcher',
      instructions: 'Answer in one sentence.',
      model: openaiAgentsModel(fakeLLM([{ text: 'Tracing pairs every start with an end.' }]), {
        agent: 'researcher',
      }),
    });
    const managerScript = fakeLLM([
      { toolCalls: [{ name: 'research', args: { input: 'What is tracing?' } }] },
      { text: 'Tracing pairs starts with ends.' },
    ]);
    const manager = new Agent({
      name: 'manager',
      tools: [researcher.asTool({ toolName: 'research', toolDescription: 'Ask the researcher' })],
      model: openaiAgentsModel(managerScript, { agent: 'manager' }),
    });
    const result = await run(manager, 'Explain tracing.');
    expect(result.finalOutput).toBe('Tracing pairs starts with ends.');
    expect(managerScript.calls[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      toolName: 'research',
      content: 'Tracing pairs every start with an end.',
    });
  });

  it('answers structured output with the schema the SDK asked for, and streams', async () => {
    const script = fakeLLM([{ text: '{"city":"Oslo","cold":true}' }, { text: 'Oslo is cold.' }]);
    const judge = new Agent({
      name: 'judge',
      outputType: z.object({ city: z.string(), cold: z.boolean() }),
      model: openaiAgentsModel(script),
    });
    const judged = await run(judge, 'Is Oslo cold?');
    expect(judged.finalOutput).toEqual({ city: 'Oslo', cold: true });
    expect(script.calls[0]?.responseFormat?.schema).toMatchObject({
      properties: { city: { type: 'string' }, cold: { type: 'boolean' } },
    });
    const streamed = await run(
      new Agent({ name: 'streamer', model: openaiAgentsModel(script) }),
      'Oslo?',
      {
        stream: true,
      },
    );
    let text = '';
    for await (const chunk of streamed.toTextStream()) text += chunk;
    await streamed.completed;
    expect(text).toBe('Oslo is cold.');
    expect(streamed.finalOutput).toBe('Oslo is cold.');
  });

  it('keeps the script strict: a call past its last step fails the run, and says so', async () => {
    const script = fakeLLM([{ toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }]);
    const agent = new Agent({ name: 'short', tools: [weather], model: openaiAgentsModel(script) });
    await expect(run(agent, 'Oslo?')).rejects.toThrow(/FakeLLM 'fake-model' was called a 2nd time/);
  });
});
