/**
 * The MCP call benchmark in a process of its own, compiled as a built application runs (see
 * ../compiled.ts). Usage: node mcp-worker.mjs <calls> <rounds> [stdio-server.mjs]; prints one
 * JSON line.
 */
import { measureMcpCall } from '../mcp-call.js';

const [calls = '300', rounds = '5', stdioServer] = process.argv.slice(2);
const result = await measureMcpCall(Number(calls), Number(rounds), stdioServer);
process.stdout.write(`${JSON.stringify(result)}\n`);
