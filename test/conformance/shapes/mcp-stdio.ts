/** The MCP desk over a stdio server, connected as the module loads and never closed by it. */
import { connectMcp } from '@agent-trace/core/mcp';
import type { Change } from '../harness/shape.js';
import { mcpDesk, stdioConfig } from './mcp-desk.js';

export const mcp = await connectMcp(stdioConfig());
export const build = (change?: Change) => mcpDesk(mcp.tools, change);
export default build();
