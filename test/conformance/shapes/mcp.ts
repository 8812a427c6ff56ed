/** The MCP rows: stdio, Streamable HTTP, and the server gone at rerun. */
import { type AnyAgent } from '@agent-trace/core';
import { useRecordedServers } from '@agent-trace/core/mcp/recorded';
import { recordedEvents, recordedServers } from '@agent-trace/trace';
import { expect } from 'vitest';
import { startHttpMcpServer } from '../../fixtures/mcp/http-server.js';
import { recordRun, script } from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

type McpModule = { build: (change?: Change) => AnyAgent; mcp: { close(): Promise<void> } };

const changes: Shape['changes'] = {
  instructions: { agent: 'archivist' },
  'tool removed': { agent: 'archivist', tool: 'chart' },
};

const holds: Shape['holds'] = events => {
  const ends = events.filter(e => e.event === 'tool_end');
  expect(ends.some(e => e.event === 'tool_end' && e.error?.type === 'tool_error')).toBe(true);
  expect(ends.every(e => e.event === 'tool_end' && e.mcp_server?.name === 'archive')).toBe(true);
};

const question = 'Paris, the archive, and 2 + 3?';

/** After the parallel lookups, another model answers: the fork's later tools would call the server. */
const fork: Shape['fork'] = {
  afterStep: 1,
  model: () => script([{ text: 'Paris is at 21°C; that is enough.' }]),
  expect: report =>
    expect(report.result).toMatchObject({ output: 'Paris is at 21°C; that is enough.' }),
};

let stdio: Promise<McpModule> | undefined;
const stdioModule = () => (stdio ??= import('./mcp-stdio.js') as Promise<McpModule>);

/** Servers of another version, started for the changes they plant. */
const upgraded: { close(): Promise<void> }[] = [];

export const mcpStdio: Shape = {
  name: 'MCP tools over stdio (an isError answer among them)',
  module: 'test/conformance/shapes/mcp-stdio.ts',
  record: async file => recordRun(file, (await stdioModule()).build(), question),
  build: async change => {
    if (change !== 'tool description') return (await stdioModule()).build(change);
    // The server itself changed: its lookup tool is described otherwise.
    const { connectMcp } = await import('@agent-trace/core/mcp');
    const { mcpDesk, stdioConfig } = await import('./mcp-desk.js');
    const v2 = await connectMcp(stdioConfig('archive-v2'));
    upgraded.push(v2);
    return mcpDesk(v2.tools);
  },
  changes: {
    ...changes,
    'tool description': { agent: 'archivist', tool: 'lookup' },
  },
  holds,
  fork,
  close: async () => {
    await Promise.all(upgraded.splice(0).map(server => server.close()));
    await (await stdio)?.mcp.close();
  },
};

let http: { url: string; close(): Promise<void> } | undefined;
let httpModule: Promise<McpModule> | undefined;
const httpAgent = () => (httpModule ??= import('./mcp-http.js') as Promise<McpModule>);

export const mcpHttp: Shape = {
  name: 'MCP tools over Streamable HTTP',
  module: 'test/conformance/shapes/mcp-http.ts',
  record: async file => {
    http = await startHttpMcpServer('archive');
    process.env.AGENT_TRACE_CONFORMANCE_MCP_URL = http.url;
    await recordRun(file, (await httpAgent()).build(), question);
  },
  build: async change => (await httpAgent()).build(change),
  changes,
  holds,
  fork,
  close: async () => {
    await (await httpModule)?.mcp.close();
    await http?.close();
  },
};

let gone: Promise<McpModule> | undefined;

export const mcpGone: Shape = {
  name: 'MCP tools, the server gone at rerun',
  module: 'test/conformance/shapes/mcp-gone.ts',
  record: async file => {
    const { connectMcp } = await import('@agent-trace/core/mcp');
    const { mcpDesk, stdioConfig } = await import('./mcp-desk.js');
    const live = await connectMcp(stdioConfig());
    await recordRun(file, mcpDesk(live.tools), question);
    await live.close();
    const events = await recordedEvents(file);
    // What code does to rerun with the server gone; the CLI does it by itself.
    useRecordedServers(recordedServers(events));
    gone = import('./mcp-gone.js');
    await gone;
    useRecordedServers(undefined);
  },
  build: async change => (await gone!).build(change),
  changes,
  holds,
  fork,
};
