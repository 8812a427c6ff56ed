/**
 * `@agent-trace/core/mcp/recorded`: MCP servers as a rerun meets them, without the MCP SDK. A rerun
 * offers the servers a trace recorded where one is gone (`useRecordedServers`), says which it
 * stood in for (`recordedServerNotes`), and closes every connection a module opened and left open
 * (`closeOpenConnections`).
 */
export { closeOpenConnections } from '../../kernel/tool/open-connections.js';
export { recordedServerNotes, useRecordedServers } from '../../kernel/tool/recorded-servers.js';
export type { RecordedServer, RecordedServerTool } from '../../kernel/tool/recorded-servers.js';
