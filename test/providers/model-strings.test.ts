import { agent, model, run } from '@agent-trace/core';
import { anthropicHandlers, openaiHandlers } from '@agent-trace/testing/msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMswServer } from '../support/provider-wire.js';

const server = useMswServer();
afterEach(() => vi.unstubAllEnvs());

const ask = (named: ReturnType<typeof model>) => run(agent({ name: 'a', model: named }), 'Hello?');

describe('model strings', () => {
  it('name an OpenAI model, over the Chat Completions wire', async () => {
    server.use(
      ...openaiHandlers([{ text: 'Hi from OpenAI.' }], { baseURL: 'http://openai.test/v1' }),
    );
    const named = model('openai:gpt-4o-mini', { apiKey: 'k', baseURL: 'http://openai.test/v1' });
    expect(named).toMatchObject({ provider: 'openai.chat', modelId: 'gpt-4o-mini' });
    expect((await ask(named)).output).toBe('Hi from OpenAI.');
  });

  it('name an Anthropic model', async () => {
    server.use(
      ...anthropicHandlers([{ text: 'Hi from Claude.' }], { baseURL: 'http://claude.test' }),
    );
    const named = model('anthropic:claude-sonnet-4-6', {
      apiKey: 'k',
      baseURL: 'http://claude.test',
    });
    expect((await ask(named)).output).toBe('Hi from Claude.');
  });

  it('name any OpenAI-compatible server by its endpoint, with no key needed', async () => {
    server.use(
      ...openaiHandlers([{ text: 'Hi from Ollama.' }], { baseURL: 'http://127.0.0.1:11434/v1' }),
    );
    const named = model('openai-compatible:llama3.2', {
      baseURL: 'http://127.0.0.1:11434/v1',
      temperature: 0.2,
    });
    expect(named).toMatchObject({
      provider: 'openai-compatible',
      modelId: 'llama3.2',
      settings: { temperature: 0.2 },
    });
    expect((await ask(named)).output).toBe('Hi from Ollama.');
  });

  it('take the default from AGENT_TRACE_MODEL', () => {
    vi.stubEnv('AGENT_TRACE_MODEL', 'anthropic:claude-sonnet-4-6');
    expect(model()).toMatchObject({ provider: 'anthropic.messages', modelId: 'claude-sonnet-4-6' });
    vi.stubEnv('AGENT_TRACE_MODEL', '');
    expect(() => model()).toThrow(
      "No model named: pass one, e.g. model('openai:gpt-4o'), or set AGENT_TRACE_MODEL=anthropic:claude-sonnet-4-6.",
    );
  });

  it('refuse an unknown provider, listing the known ones', () => {
    expect(() => model('gemini:2.5-pro')).toThrow(
      `Invalid model string "gemini:2.5-pro": expected <provider>:<model> with a provider among openai, openai-responses, anthropic, openai-compatible, e.g. 'openai:gpt-4o'.`,
    );
    expect(() => model('gpt-4o')).toThrow(/Invalid model string "gpt-4o"/);
    expect(() => model('openai-compatible:qwen')).toThrow(
      "Model 'openai-compatible:qwen' needs the server's endpoint: model('openai-compatible:qwen', { baseURL: 'http://127.0.0.1:11434/v1' }).",
    );
  });
});
