/** The MCP desk over a Streamable HTTP server on 127.0.0.1 (its address in the environment). */
import { connectMcp } from '@agent-trace/core/mcp';
import type { Change } from '../harness/shape.js';
import { mcpDesk } from './mcp-desk.js';

const url = process.env.AGENT_TRACE_CONFORMANCE_MCP_URL;
if (url === undefined) throw new Error('Set AGENT_TRACE_CONFORMANCE_MCP_URL to the MCP server.');
export const mcp = await connectMcp({ mcpServers: { archive: { url } } });
export const build = (change?: Change) => mcpDesk(mcp.tools, change);
export default build();
