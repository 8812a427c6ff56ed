/**
 * An agent over MCP tools: it looks a city up and asks a tool that answers `isError` (the model
 * reads the error), in parallel, then adds two numbers. The modules beside this one connect to the
 * server as they load, as an application's module does.
 */
import { fileURLToPath } from 'node:url';
import { agent, type AnyTool } from '@agent-trace/core';
import type { McpConfig } from '@agent-trace/core/mcp';
import { instructions, plantedTools, script } from '../harness/plant.js';
import type { Change } from '../harness/shape.js';

const serverScript = fileURLToPath(new URL('../../fixtures/mcp/stdio-server.ts', import.meta.url));

/**
 * The test MCP server as a process over stdio, listed as `archive`. The process's own name is in
 * its `lookup` tool's description and results: a server of another version (`archive-v2`)
 * describes and answers it otherwise.
 */
export const stdioConfig = (version = 'archive'): McpConfig => ({
  mcpServers: {
    archive: { command: process.execPath, args: ['--import', 'tsx', serverScript, version] },
  },
});

/** The desk over the server's tools, as today's code builds it. */
export function mcpDesk(tools: readonly AnyTool[], change?: Change) {
  const offered = tools.filter(tool => ['lookup', 'refuse', 'add', 'chart'].includes(tool.name));
  return agent({
    name: 'archivist',
    instructions: instructions(change, 'Use the archive.'),
    model: script([
      {
        toolCalls: [
          { name: 'lookup', args: { city: 'Paris' } },
          { name: 'refuse', args: {} },
        ],
      },
      { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
      { text: 'Paris is at 21°C; the archive is offline; 2 + 3 = 5.' },
    ]),
    tools: plantedTools(change, 'chart', offered),
  });
}
