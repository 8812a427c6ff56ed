/** A tool an MCP server listed, as a recording keeps it. */
export interface RecordedServerTool {
  /** The name the model was offered (prefixed when two servers list the same name). */
  readonly name: string;
  readonly description: string;
  /** Its JSON Schema. */
  readonly parameters: unknown;
}

/** An MCP server as a recording knows it: its name, its transport and the tools it listed. */
export interface RecordedServer {
  readonly name: string;
  readonly transport: string;
  readonly tools: readonly RecordedServerTool[];
}

/**
 * The recording's servers and what was answered from them: one slot for the process, whichever
 * copy of this package a module loaded (the CLI's, or an agent module's own).
 */
const slot = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('agent-trace.recorded-servers')
] ??= { recorded: undefined, notes: [] }) as {
  recorded: ReadonlyMap<string, RecordedServer> | undefined;
  notes: string[];
};

/**
 * While set, a server `connectMcp` cannot reach is answered from here when its name is here:
 * its tools are the recorded ones, each failing if actually called (a rerun answers their calls
 * from the recording before that). What `agent-trace rerun` sets before it loads an agent module,
 * so a module that connects at import reruns with the server gone. `undefined` clears it.
 */
export function useRecordedServers(servers: readonly RecordedServer[] | undefined): void {
  slot.recorded =
    servers === undefined ? undefined : new Map(servers.map(server => [server.name, server]));
  slot.notes = [];
}

/**
 * The recorded server named `name`, while {@link useRecordedServers} holds one, taken in place
 * of the live server for `why` (said in {@link recordedServerNotes}).
 */
export function recallServer(name: string, why: string): RecordedServer | undefined {
  const server = slot.recorded?.get(name);
  if (server !== undefined)
    slot.notes.push(
      `MCP server '${name}' could not be connected (${why}): its ${server.tools.length} tool${server.tools.length === 1 ? ' is' : 's are'} offered as the recording lists them, and calls are answered from it.`,
    );
  return server;
}

/** One line for each server answered from the recording since {@link useRecordedServers}. */
export function recordedServerNotes(): readonly string[] {
  return slot.notes;
}
