import { AgentTraceError, type TraceEvent } from '@agent-trace/core';
import {
  describeNewerContent,
  describeReplacedBytes,
  describeTornTail,
  groupRuns,
  readTrace,
  type TornTail,
  type TraceRun,
} from '@agent-trace/trace';
import { exitCodes, type CommandResult } from './command-result.js';

/**
 * A trace a command reads as a stream, never whole: events or runs one at a time. What is worth a
 * warning (a torn last line, content from a newer minor schema version) is collected on the way.
 */
export class TraceInput {
  readonly warnings: string[] = [];
  tornTail: TornTail | undefined;

  constructor(readonly file: string) {}

  /** The events, in file order. */
  events(): AsyncIterableIterator<TraceEvent> {
    return readTrace(this.file, {
      onTornTail: tail => {
        this.tornTail = tail;
        this.warnings.push(`warning: ${describeTornTail(tail)}`);
      },
      onNewerContent: content => this.warnings.push(`warning: ${describeNewerContent(content)}`),
      onReplacedBytes: at => this.warnings.push(`warning: ${describeReplacedBytes(at)}`),
    });
  }

  /** The runs, each as soon as it is sealed; the unsealed ones at the end. */
  runs(): AsyncGenerator<TraceRun, void, undefined> {
    return groupRuns(this.events());
  }

  /** The warnings, one per line, for stderr. */
  get warningText(): string {
    return this.warnings.join('\n');
  }
}

/**
 * The result of a command whose trace could not be read: the reader's message (with file and
 * line) and exit 2. Anything that is not a trace error is thrown again.
 */
export function unreadableTrace(error: unknown, file: string): CommandResult {
  if (!AgentTraceError.isInstance(error)) throw error;
  return {
    exitCode: exitCodes.unreadable,
    stdout: '',
    stderr: `${error.message}\nRun 'agent-trace validate ${file}' to list every problem in the file.`,
  };
}

/** A whole trace in memory, for what needs all of it at once (re-execution). */
export type LoadedTrace =
  | { readonly ok: true; readonly events: TraceEvent[]; readonly warnings: string }
  | { readonly ok: false; readonly result: CommandResult };

/** Reads a whole trace; an unreadable one comes back as the command's result. */
export async function loadTrace(file: string): Promise<LoadedTrace> {
  const input = new TraceInput(file);
  const events: TraceEvent[] = [];
  try {
    for await (const event of input.events()) events.push(event);
  } catch (error) {
    return { ok: false, result: unreadableTrace(error, file) };
  }
  return { ok: true, events, warnings: input.warningText };
}
