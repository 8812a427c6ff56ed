import { AgentTraceError, type TraceEvent } from '@agent-trace/core';
import { readTrace, type TornTail } from '@agent-trace/trace';

/** A trace read into memory, with what was wrong with its tail. */
export type LoadedTrace =
  | { readonly ok: true; readonly events: TraceEvent[]; readonly tornTail: TornTail | undefined }
  | { readonly ok: false; readonly message: string };

/**
 * Reads a whole trace for a command. Unreadable files and bad lines come back as a message
 * (file and line included) instead of a throw, for the command to print.
 */
export async function loadTrace(file: string): Promise<LoadedTrace> {
  const events: TraceEvent[] = [];
  let tornTail: TornTail | undefined;
  try {
    for await (const event of readTrace(file, { onTornTail: tail => (tornTail = tail) })) {
      events.push(event);
    }
  } catch (error) {
    if (!AgentTraceError.isInstance(error)) throw error;
    return {
      ok: false,
      message: `${error.message}\nRun 'agent-trace validate ${file}' to list every problem in the file.`,
    };
  }
  return { ok: true, events, tornTail };
}
