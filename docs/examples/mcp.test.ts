import { agent, run } from '@agent-trace/core';
import { connectMcp } from '@agent-trace/core/mcp';
import { fakeLLM } from '@agent-trace/testing';
import { fakeMcpServer } from '@agent-trace/testing/mcp';
import { memorySink } from '@agent-trace/trace';
import { expect, it } from 'vitest';
import { z } from 'zod';

it('answers from a fake MCP server, scripted like a FakeTool', async () => {
  const docs = fakeMcpServer('docs', {
    search: {
      description: 'Search the docs',
      input: { q: z.string() },
      steps: [{ result: { hits: ['otel.md'] } }, { error: 'index offline' }],
    },
  });
  await using mcp = await connectMcp({ mcpServers: { docs: { transport: docs.transport() } } });
  const trace = memorySink();
  const result = await run(
    agent({
      name: 'researcher',
      model: fakeLLM([
        { toolCalls: [{ name: 'search', args: { q: 'otel' } }] },
        { toolCalls: [{ name: 'search', args: { q: 'jaeger' } }] },
        { text: 'See otel.md.' },
      ]),
      tools: [...mcp.tools],
    }),
    'Where are the OpenTelemetry docs?',
    { trace },
  );
  expect(docs.calls).toEqual([
    { tool: 'search', args: { q: 'otel' } },
    { tool: 'search', args: { q: 'jaeger' } },
  ]);
  expect(result.toolCalls.map(call => call.result ?? call.error)).toEqual([
    { hits: ['otel.md'] },
    "Tool 'search' (MCP server 'docs') answered with an error: index offline",
  ]);
  expect(trace).toHaveCalledTool('search', { q: 'otel' });
});
