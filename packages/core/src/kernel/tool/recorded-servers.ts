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

let recorded: ReadonlyMap<string, RecordedServer> | undefined;
let notes: string[] = [];

/**
 * While set, a server `connectMcp` cannot reach is answered from here when its name is here:
 * its tools are the recorded ones, each failing if actually called (a rerun answers their calls
 * from the recording before that). What `agent-trace rerun` sets before it loads an agent module,
 * so a module that connects at import reruns with the server gone. `undefined` clears it.
 */
export function useRecordedServers(servers: readonly RecordedServer[] | undefined): void {
  recorded =
    servers === undefined ? undefined : new Map(servers.map(server => [server.name, server]));
  notes = [];
}

/**
 * The recorded server named `name`, while {@link useRecordedServers} holds one, taken in place
 * of the live server for `why` (said in {@link recordedServerNotes}).
 */
export function recallServer(name: string, why: string): RecordedServer | undefined {
  const server = recorded?.get(name);
  if (server !== undefined)
    notes.push(
      `MCP server '${name}' could not be connected (${why}): its ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'} are offered as the recording lists them, and their calls answered from it.`,
    );
  return server;
}

/** One line for each server answered from the recording since {@link useRecordedServers}. */
export function recordedServerNotes(): readonly string[] {
  return notes;
}
