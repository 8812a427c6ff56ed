import { fileURLToPath } from 'node:url';
import { agent, run, stream, type TraceEvent } from '@agent-trace/core';
import { connectMcp, type McpServers } from '@agent-trace/core/mcp';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpMcpServer } from '../fixtures/mcp/http-server.js';

const serverScript = fileURLToPath(new URL('../fixtures/mcp/stdio-server.ts', import.meta.url));
/** A real MCP server process over stdio. */
const stdio = (name: string) => ({
  command: process.execPath,
  args: ['--import', 'tsx', serverScript, name],
});

const open: McpServers[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map(servers => servers.close()));
});
async function connect(...args: Parameters<typeof connectMcp>): Promise<McpServers> {
  const servers = await connectMcp(...args);
  open.push(servers);
  return servers;
}

const toolEnds = (events: readonly TraceEvent[]) =>
  events.filter(
    (event): event is Extract<TraceEvent, { event: 'tool_end' }> => event.event === 'tool_end',
  );

/**
 * Runs an agent whose one tool call is `wait 20000`, aborts the run once `log` shows the server
 * running it (as a person pressing Ctrl-C would), and checks the run ended aborted, the trace
 * sealed, and the cancellation reached the server.
 */
async function abortMidCall(mcp: McpServers, log: () => string): Promise<void> {
  const controller = new AbortController();
  const trace = memorySink();
  const running = stream(
    agent({
      name: 'a',
      model: fakeLLM([{ toolCalls: [{ name: 'wait', args: { ms: 20_000 } }] }], {
        allowUnusedSteps: true,
      }),
      tools: [...mcp.tools],
    }),
    'go',
    { trace, signal: controller.signal },
  );
  for await (const chunk of running) {
    if (chunk.type === 'tool_call')
      void expect
        .poll(log)
        .toContain('started: wait 20000')
        .then(() => controller.abort('the user left'));
  }
  expect((await running.result).stopReason).toBe('aborted');
  expect(validateTrace(trace.events).problems).toEqual([]);
  await expect.poll(log, { timeout: 2000 }).toContain('cancelled: wait 20000');
}

describe('MCP tools over stdio (a real server process)', () => {
  it('lists the tools with their definitions, and runs a call through the loop', async () => {
    const mcp = await connect({ mcpServers: { math: stdio('math') } });
    expect(mcp.servers).toMatchObject([
      {
        name: 'math',
        transport: 'stdio',
        tools: ['add', 'lookup', 'trace_context', 'refuse', 'chart', 'wait', 'crash'],
      },
    ]);
    await expect.poll(() => stderrOf(mcp)).toContain('math ready');
    const add = mcp.tools.find(tool => tool.name === 'add');
    expect(add?.definition).toMatchObject({
      name: 'add',
      description: 'Add two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
    });
    const trace = memorySink();
    const result = await run(
      agent({
        name: 'calc',
        model: fakeLLM([
          { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
          { text: 'It is 5.' },
        ]),
        tools: [...mcp.tools],
      }),
      'What is 2 + 3?',
      { trace },
    );
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'add', result: '5', error: undefined });
    expect(trace.events.find(event => event.event === 'tool_start')).toMatchObject({
      tool: 'add',
      mcp_server: { name: 'math', transport: 'stdio' },
    });
    expect(validateTrace(trace.events).problems).toEqual([]);
  });

  it("carries the call's trace context to the server in the request's _meta", async () => {
    const mcp = await connect({ mcpServers: { math: stdio('math') } });
    const trace = memorySink();
    const result = await run(
      agent({
        name: 'calc',
        model: fakeLLM([{ toolCalls: [{ name: 'trace_context' }] }, { text: 'ok' }]),
        tools: [...mcp.tools],
      }),
      'Which trace?',
      { trace },
    );
    const toolStart = trace.events.find(event => event.event === 'tool_start')!;
    // The server saw the W3C traceparent of the tool's span: it can join this trace.
    expect(JSON.parse(String(result.toolCalls[0]?.result))).toEqual({
      traceparent: `00-${toolStart.trace_id}-${toolStart.span_id}-01`,
    });
  });

  it('feeds invalid arguments back as a tool error, without calling the server', async () => {
    const mcp = await connect({ mcpServers: { math: stdio('math') } });
    const result = await run(
      agent({
        name: 'calc',
        model: fakeLLM([
          { toolCalls: [{ name: 'add', args: { a: 'two', b: 3 } }] },
          { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
          { text: '5' },
        ]),
        tools: [...mcp.tools],
      }),
      'add',
    );
    expect(result.toolCalls.map(call => call.error ?? call.result)).toEqual([
      expect.stringMatching(/^Invalid arguments for tool 'add': a: Invalid input: expected number/),
      '5',
    ]);
  });

  it('maps structured content, typed image parts, and isError to a tool error the model reads', async () => {
    const mcp = await connect({ mcpServers: { docs: stdio('docs') } });
    const trace = memorySink();
    const result = await run(
      agent({
        name: 'a',
        model: fakeLLM([
          {
            toolCalls: [
              { name: 'lookup', args: { city: 'Paris' } },
              { name: 'chart' },
              { name: 'refuse' },
            ],
          },
          { text: 'done' },
        ]),
        tools: [...mcp.tools],
        circuitBreaker: false,
      }),
      'go',
      { trace },
    );
    expect(
      result.toolCalls.map(call => [call.toolName, call.result ?? call.error, call.attempts]),
    ).toEqual([
      ['lookup', { city: 'Paris', server: 'docs', celsius: 21 }, 1],
      [
        'chart',
        [
          { type: 'text', text: 'the chart' },
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
        1,
      ],
      [
        'refuse',
        "Tool 'refuse' (MCP server 'docs') answered with an error: the archive is offline",
        1,
      ],
    ]);
    expect(toolEnds(trace.events).at(-1)).toMatchObject({ error: { type: 'tool_error' } });
  });

  it('names clashing tools of two servers by their server, never one shadowing the other', async () => {
    const mcp = await connect({ mcpServers: { paris: stdio('paris'), oslo: stdio('oslo') } });
    expect(mcp.tools.map(tool => tool.name)).toContain('paris__lookup');
    expect(mcp.tools.map(tool => tool.name)).toContain('oslo__lookup');
    expect(mcp.tools.map(tool => tool.name)).not.toContain('lookup');
    const result = await run(
      agent({
        name: 'a',
        model: fakeLLM([
          { toolCalls: [{ name: 'oslo__lookup', args: { city: 'Oslo' } }] },
          { text: 'done' },
        ]),
        tools: [...mcp.tools],
      }),
      'go',
    );
    expect(result.toolCalls[0]?.result).toMatchObject({ server: 'oslo' });
  });

  it('reports a server that dies mid-call with its name and stderr, and stops offering its tools', async () => {
    const mcp = await connect({ mcpServers: { index: stdio('index') } });
    const trace = memorySink();
    const result = await run(
      agent({
        name: 'a',
        model: fakeLLM([{ toolCalls: [{ name: 'crash' }] }, { text: 'The index is down.' }]),
        tools: [...mcp.tools],
        circuitBreaker: false,
      }),
      'go',
      { trace },
    );
    expect(result.toolCalls[0]?.error).toMatch(
      /^Tool 'crash' is unavailable: .*MCP server 'index' \(stdio\) is gone .*Its stderr ends with:\n(.|\n)*fatal: the index is corrupt/s,
    );
    expect(result.stopReason).toBe('tool_failure_degraded');
    expect(validateTrace(trace.events).problems).toEqual([]);
  });

  it('times a slow call out and cancels it on the server', async () => {
    const mcp = await connect({ mcpServers: { slow: stdio('slow') } }, { timeoutMs: 200 });
    const result = await run(
      agent({
        name: 'a',
        model: fakeLLM([
          { toolCalls: [{ name: 'wait', args: { ms: 10_000 } }] },
          { text: 'gave up' },
        ]),
        tools: [...mcp.tools],
        retry: { toolRetries: 0 },
        circuitBreaker: false,
      }),
      'go',
    );
    expect(result.toolCalls[0]?.error).toMatch(/timed out|did not finish|200 ms/);
    await expect.poll(() => stderrOf(mcp), { timeout: 2000 }).toContain('cancelled: wait 10000');
  });

  it('sends a cancellation to the server when the run is aborted, and seals the trace', async () => {
    const mcp = await connect({ mcpServers: { slow: stdio('slow') } });
    await abortMidCall(mcp, () => stderrOf(mcp));
  });

  it('refuses a configuration it cannot use, saying how to fix it', async () => {
    await expect(connectMcp({ mcpServers: { 'bad name!': stdio('x') } })).rejects.toThrow(
      /MCP server name "bad name!" is not usable in tool names/,
    );
    await expect(connectMcp({ mcpServers: { x: {} as never } })).rejects.toThrow(
      "MCP server 'x' needs either a command (stdio: { command, args, env, cwd }) or a url (Streamable HTTP: { url, headers }), not neither.",
    );
    await expect(
      connectMcp({
        mcpServers: {
          ghost: {
            command: process.execPath,
            args: ['-e', 'process.stderr.write("no such module"); process.exit(1)'],
          },
        },
      }),
    ).rejects.toThrow(/MCP server 'ghost' could not be connected .*no such module/s);
  });
});

describe('an aborted run over Streamable HTTP', () => {
  it('sends the cancellation to the server', async () => {
    const web = await startHttpMcpServer('web');
    try {
      await abortMidCall(await connect({ mcpServers: { web: { url: web.url } } }), web.log);
    } finally {
      await web.close();
    }
  });
});

describe('a server whose tool list changes', () => {
  it('refreshes the tools when it says so', async () => {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const [client, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new McpServer({ name: 'grow', version: '1.0.0' });
    server.registerTool('first', { description: 'First', inputSchema: {} }, () => ({
      content: [{ type: 'text', text: '1' }],
    }));
    await server.connect(serverSide);
    const mcp = await connect({ mcpServers: { grow: { transport: client } } });
    expect(mcp.tools.map(tool => tool.name)).toEqual(['first']);
    server.registerTool('second', { description: 'Second', inputSchema: {} }, () => ({
      content: [{ type: 'text', text: '2' }],
    }));
    await expect.poll(() => mcp.tools.map(tool => tool.name)).toEqual(['first', 'second']);
  });
});

describe('an HTTP server that goes away mid-call', () => {
  // Over Streamable HTTP the SDK client waits to resume a broken response stream, so the call
  // ends at its timeout (not at once, as with a stdio server whose process exits).
  it('fails the call by its timeout with an error naming the server, and seals the trace', async () => {
    const web = await startHttpMcpServer('web');
    const mcp = await connect({ mcpServers: { web: { url: web.url } } }, { timeoutMs: 500 });
    const trace = memorySink();
    const running = run(
      agent({
        name: 'a',
        model: fakeLLM([{ toolCalls: [{ name: 'wait', args: { ms: 10_000 } }] }, { text: 'down' }]),
        tools: [...mcp.tools],
        retry: { toolRetries: 0 },
        circuitBreaker: false,
      }),
      'go',
      { trace },
    );
    await expect.poll(() => trace.events.some(event => event.event === 'tool_start')).toBe(true);
    await web.close();
    const result = await running;
    expect(result.toolCalls[0]?.error).toMatch(/MCP server 'web'\) timed out after 500 ms/);
    expect(validateTrace(trace.events).problems).toEqual([]);
  });
});

describe('rerunning a trace with MCP tools', () => {
  it('answers them from the recording: no server is needed', async () => {
    const { rerunTrace } = await import('@agent-trace/trace');
    const mcp = await connect({ mcpServers: { math: stdio('math') } });
    const desk = () =>
      agent({
        name: 'calc',
        model: fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: '5' }], {
          allowUnusedSteps: true,
        }),
        tools: [...mcp.tools],
      });
    const trace = memorySink();
    await run(desk(), 'What is 2 + 3?', { trace });
    await mcp.close(); // the server is gone; the recording answers
    const report = await rerunTrace(trace.events, desk());
    expect(report.differences).toEqual([]);
    expect(report.result.toolCalls[0]?.result).toBe('5');
  });
});

describe('MCP tools over Streamable HTTP (127.0.0.1)', () => {
  it('feed back invalid arguments, map results and isError, name clashes, and time out', async () => {
    const paris = await startHttpMcpServer('paris');
    const oslo = await startHttpMcpServer('oslo');
    try {
      const mcp = await connect(
        { mcpServers: { paris: { url: paris.url }, oslo: { url: oslo.url } } },
        { timeoutMs: 300 },
      );
      const result = await run(
        agent({
          name: 'a',
          model: fakeLLM([
            {
              toolCalls: [
                { name: 'paris__add', args: { a: 'two', b: 3 } },
                { name: 'oslo__lookup', args: { city: 'Oslo' } },
                { name: 'paris__refuse' },
                { name: 'oslo__wait', args: { ms: 5000 } },
              ],
            },
            { text: 'done' },
          ]),
          tools: [...mcp.tools],
          retry: { toolRetries: 0 },
          circuitBreaker: false,
        }),
        'go',
      );
      expect(result.toolCalls.map(call => call.result ?? call.error)).toEqual([
        expect.stringMatching(
          /^Invalid arguments for tool 'paris__add': a: Invalid input: expected number/,
        ),
        { city: 'Oslo', server: 'oslo', celsius: 21 },
        "Tool 'paris__refuse' (MCP server 'paris') answered with an error: the archive is offline",
        expect.stringMatching(/timed out after 300 ms and was cancelled/),
      ]);
    } finally {
      await Promise.all([paris.close(), oslo.close()]);
    }
  });

  it('lists and calls tools, sending the configured headers', async () => {
    const server = await startHttpMcpServer('web');
    try {
      const mcp = await connect({
        mcpServers: { web: { url: server.url, headers: { authorization: 'Bearer test-token' } } },
      });
      expect(mcp.servers[0]).toMatchObject({ name: 'web', transport: 'http' });
      const result = await run(
        agent({
          name: 'a',
          model: fakeLLM([
            { toolCalls: [{ name: 'lookup', args: { city: 'Lyon' } }] },
            { text: 'ok' },
          ]),
          tools: [...mcp.tools],
        }),
        'go',
      );
      expect(result.toolCalls[0]?.result).toEqual({ city: 'Lyon', server: 'web', celsius: 21 });
      expect(server.headers().authorization).toBe('Bearer test-token');
    } finally {
      await server.close();
    }
  });
});

/** What the (first) stdio server has written to stderr so far. */
const stderrOf = (mcp: McpServers): string => mcp.servers[0]?.stderr() ?? '';

describe('MCP tool spans over OTLP', () => {
  it('carry the MCP conventions: the method and the transport', async () => {
    const { otlpSink } = await import('@agent-trace/trace/otlp');
    const { startOtlpReceiver } = await import('@agent-trace/testing/otlp');
    const collector = await startOtlpReceiver();
    try {
      const mcp = await connect({ mcpServers: { math: stdio('math') } });
      await run(
        agent({
          name: 'calc',
          model: fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] }, { text: '3' }]),
          tools: [...mcp.tools],
        }),
        'go',
        { trace: otlpSink({ endpoint: collector.url, awaitAtRunEnd: true }) },
      );
      const span = collector.spans.find(candidate => candidate.name === 'execute_tool add');
      expect(span?.attributes).toMatchObject({
        'gen_ai.tool.name': 'add',
        'gen_ai.tool.type': 'extension',
        'mcp.method.name': 'tools/call',
        'network.transport': 'pipe',
        'agent_trace.mcp.server.name': 'math',
        'agent_trace.mcp.server.transport': 'stdio',
      });
    } finally {
      await collector.close();
    }
  });
});
