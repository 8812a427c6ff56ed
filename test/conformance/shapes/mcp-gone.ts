/**
 * The MCP desk with its server gone: the module connects as it loads to a server that cannot
 * start. A rerun answers from the recording: `agent-trace rerun` by itself, code after
 * `useRecordedServers(recordedServers(trace))`.
 */
import { connectMcp } from '@agent-trace/core/mcp';
import type { Change } from '../harness/shape.js';
import { mcpDesk } from './mcp-desk.js';

export const mcp = await connectMcp({
  mcpServers: { archive: { command: process.execPath, args: ['-e', 'process.exit(3)'] } },
});
export const build = (change?: Change) => mcpDesk(mcp.tools, change);
export default build();
