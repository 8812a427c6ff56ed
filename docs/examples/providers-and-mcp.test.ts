// docs/guide/providers-and-mcp.md: the adapters, a wire-format test, and MCP servers' tools.
import { openai } from '@agent-trace/core/openai'; // Chat Completions; openai.responses(model) for the Responses API
import { anthropic } from '@agent-trace/core/anthropic'; // Messages API

const model = openai('gpt-4o-mini'); // OPENAI_API_KEY, read at the first call
const claude = anthropic('claude-sonnet-4-6', { maxOutputTokens: 2048 });

import { fileURLToPath } from 'node:url';
import { agent, run, tool } from '@agent-trace/core';
import { connectMcp } from '@agent-trace/core/mcp';
import { fakeLLM } from '@agent-trace/testing';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { startHttpMcpServer } from '../../test/fixtures/mcp/http-server.js';

it('names the models as the trace will', () => {
  expect([model.provider, model.modelId]).toEqual(['openai.chat', 'gpt-4o-mini']);
  expect([claude.provider, claude.modelId]).toEqual(['anthropic.messages', 'claude-sonnet-4-6']);
});

it('runs the real OpenAI client against a scripted wire', async () => {
  const add = tool({
    name: 'add',
    description: 'Adds two numbers',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });

  const server = setupServer(
    ...openaiHandlers([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: '5' }]),
  );
  server.listen({ onUnhandledRequest: 'error' });
  const result = await run(
    agent({
      name: 'calc',
      model: openai('gpt-4o-mini', { apiKey: 'test', baseURL: 'http://llm.test/v1' }),
      tools: [add],
    }),
    '2 + 3?',
  );

  server.close();
  expect(result.output).toBe('5');
  expect(result.toolCalls[0]).toMatchObject({ toolName: 'add', result: 5 });
});

it('gives an agent the tools of a stdio server and an HTTP server', async () => {
  const filesServer = fileURLToPath(
    new URL('../../test/fixtures/mcp/stdio-server.ts', import.meta.url),
  );
  const docs = await startHttpMcpServer('docs');
  const model = fakeLLM([
    { toolCalls: [{ name: 'files__add', args: { a: 1, b: 2 } }] },
    { text: 'There are 3 files.' },
  ]);

  await using mcp = await connectMcp({
    mcpServers: {
      // e.g. { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] }
      files: { command: process.execPath, args: ['--import', 'tsx', filesServer, 'files'] },
      docs: { url: docs.url, headers: { authorization: 'Bearer docs-token' } },
    },
  });
  const result = await run(
    agent({ name: 'helper', model, tools: [...mcp.tools] }),
    'List the files',
  );

  // Both servers have an `add`: where names clash, each is prefixed with its server's name.
  const names = mcp.tools.map(tool => tool.name);
  expect(names).toEqual(expect.arrayContaining(['docs__add', 'files__add']));
  expect(result.toolCalls[0]).toMatchObject({ toolName: 'files__add', result: '3' });
  expect(result.output).toBe('There are 3 files.');
  expect(docs.headers()).toMatchObject({ authorization: 'Bearer docs-token' });
  await docs.close();
});
