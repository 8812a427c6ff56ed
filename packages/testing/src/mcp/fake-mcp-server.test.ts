import { connectMcp } from '@agent-trace/core/mcp';
import { describe, expect, it } from 'vitest';
import { fakeMcpServer } from './fake-mcp-server.js';

describe('fakeMcpServer', () => {
  it('answers with its steps, then respond, then an error result; and reports unused steps', async () => {
    const server = fakeMcpServer('kb', {
      get: { steps: [{ result: 'one' }], respond: () => 'more' },
      unused: { steps: [{ result: 'never' }] },
    });
    await using mcp = await connectMcp({ mcpServers: { kb: { transport: server.transport() } } });
    const get = mcp.tools.find(tool => tool.name === 'get');
    const context = {
      abortSignal: new AbortController().signal,
      callId: 'c',
      agentName: 'a',
      clock: { now: () => 0 },
    };
    expect(await get?.execute({}, context)).toBe('one');
    expect(await get?.execute({}, context)).toBe('more');
    expect(() => server.assertComplete()).toThrow(
      "Fake MCP server 'kb': tool 'unused' has 1 unused step. Remove them, or find out why the agent did not call it.",
    );
    expect(mcp.servers).toMatchObject([
      { name: 'kb', transport: 'memory', tools: ['get', 'unused'] },
    ]);
    server.assertComplete = () => undefined; // the unused step is this test's point
  });
});
