import { agent, run, stream, tool } from '@agent-trace/core';
import { runWorkflow, workflow } from '@agent-trace/core/workflow';
import { openai } from '@agent-trace/core/openai';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useMswServer } from '../support/provider-wire.js';

const server = useMswServer();
const baseURL = 'http://llm.test/v1';
const key = 'sk-proj-Zx81Qw93Lm27Vb64Nc50Tr18Yh72Ku39';
const password = 'hunter2-correct-horse';

/**
 * What a caller gets back as errors and records, as text: the result but for its conversation
 * (`messages`, what the model was sent), and its error along the cause chain.
 */
function everything(result: { error?: Error | undefined }): string {
  const seen: string[] = [JSON.stringify({ ...result, messages: undefined })];
  for (let error: unknown = result.error; error instanceof Error; error = error.cause)
    seen.push(error.message, error.stack ?? '', JSON.stringify(error));
  return seen.join('\n');
}

describe('what a run returns holds no secret shape', () => {
  it('a provider error that quotes the API key: redacted in the trace and in the returned error', async () => {
    server.use(
      ...openaiHandlers([
        { error: { status: 401, message: `Incorrect API key provided: ${key}. Find yours at …` } },
      ]),
    );
    const sink = memorySink();
    const desk = agent({
      name: 'desk',
      model: openai('gpt-4o-mini', { apiKey: key, baseURL }),
    });
    const result = await run(desk, 'hi', { trace: sink });
    expect(result.stopReason).toBe('error');
    expect(result.error?.message).toContain('Incorrect API key provided: [redacted:');
    expect(everything(result)).not.toContain(key);
    expect(JSON.stringify(sink.events)).not.toContain(key);

    server.use(...openaiHandlers([{ error: { status: 401, message: `Bad key ${key}` } }]));
    const streamed = stream(desk, 'hi', { trace: memorySink() });
    const chunks: unknown[] = [];
    for await (const chunk of streamed) chunks.push(chunk);
    expect(JSON.stringify(chunks)).not.toContain(key);
    expect(everything(await streamed.result)).not.toContain(key);
  });

  it('a tool error and a failed workflow step that quote a secret', async () => {
    const leaky = tool({
      name: 'connect',
      description: 'Connects',
      input: z.object({}),
      execute: () => {
        throw new Error(`login refused for {"user": "ana", "password": "${password}"}`);
      },
    });
    const result = await run(
      agent({
        name: 'ops',
        model: fakeLLM([{ toolCalls: [{ name: 'connect', args: {} }] }, { text: 'failed' }]),
        tools: [leaky],
      }),
      'connect',
    );
    expect(result.toolCalls[0]?.error).toContain('"password": "[redacted:');
    expect(everything(result)).not.toContain(password);

    const flow = await runWorkflow(
      workflow({ name: 'ops', steps: [{ name: 'connect', tool: leaky }] }),
    );
    expect(flow.stopReason).toBe('workflow_step_failed');
    expect(JSON.stringify(flow.steps)).not.toContain(password);
    expect(everything(flow)).not.toContain(password);
  });

  it('with redaction off, nothing is changed', async () => {
    server.use(...openaiHandlers([{ error: { status: 401, message: `Bad key ${key}` } }]));
    const result = await run(
      agent({ name: 'desk', model: openai('gpt-4o-mini', { apiKey: key, baseURL }) }),
      'hi',
      { redaction: false },
    );
    expect(result.error?.message).toContain(key);
  });
});
