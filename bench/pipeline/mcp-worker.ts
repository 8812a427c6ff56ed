/**
 * The MCP call benchmark in a process of its own, compiled as a built application runs (see
 * ../compiled.ts). Usage: node mcp-worker.mjs <calls> <rounds>; prints one JSON line.
 */
import { measureMcpCall } from '../mcp-call.js';

const [calls = '300', rounds = '5'] = process.argv.slice(2);
process.stdout.write(`${JSON.stringify(await measureMcpCall(Number(calls), Number(rounds)))}\n`);
