import { stat } from 'node:fs/promises';
import { AgentTraceError, type TraceEvent } from '@agent-trace/core';
import { describeNewerContent, tailTrace, type NewerContent } from '@agent-trace/trace';
import { renderEventLine } from '../render/event-line.js';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { TraceInput, unreadableTrace } from './trace-input.js';

/** Options of {@link followCommand}. */
export interface FollowOptions {
  readonly style: Style;
  /** Writes one line of output. */
  readonly write: (line: string) => void;
  /** How often the file is read for new lines, in milliseconds. @defaultValue 100 */
  readonly pollMs?: number;
  /** Stops following (Ctrl-C). */
  readonly signal?: AbortSignal;
}

/** Prints events as timeline lines; remembers each run's start. */
class Timeline {
  readonly #starts = new Map<string, number>();
  readonly #open = new Set<string>();
  #sealed = 0;

  constructor(private readonly options: Pick<FollowOptions, 'style' | 'write'>) {}

  show(event: TraceEvent): void {
    if (event.event === 'run_start') {
      this.#starts.set(event.run, Date.parse(event.time));
      this.#open.add(event.run);
    }
    if (event.event === 'run_end') {
      this.#open.delete(event.run);
      this.#sealed++;
    }
    this.options.write(
      renderEventLine(
        event,
        this.#starts.get(event.run) ?? Date.parse(event.time),
        this.options.style,
      ),
    );
  }

  /** True once at least one run ended and none is still open. */
  get settled(): boolean {
    return this.#sealed > 0 && this.#open.size === 0;
  }
}

/**
 * `agent-trace replay <trace> --follow`: prints the events of a trace that is still being written,
 * as they are written, until every run in it has ended (or Ctrl-C). Only complete lines are read;
 * a line still being written waits for its newline.
 */
export async function followCommand(file: string, options: FollowOptions): Promise<CommandResult> {
  const { pollMs = 100, signal } = options;
  const timeline = new Timeline(options);
  const warnings: string[] = [];
  try {
    if ((await stat(file)).isDirectory()) {
      return {
        exitCode: exitCodes.unreadable,
        stdout: '',
        stderr: `Cannot follow '${file}': it is a directory. Give the trace file, e.g. agent-trace replay traces/run.jsonl --follow.`,
      };
    }
  } catch (error) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Cannot follow trace file '${file}': ${error instanceof Error ? error.message : String(error)}. Check the path; the file must exist (start the run first).`,
    };
  }
  try {
    const onNewerContent = (content: NewerContent): number =>
      warnings.push(`warning: ${describeNewerContent(content)}`);
    for await (const batch of tailTrace(file, { pollMs, signal, onNewerContent })) {
      for (const event of batch.events) timeline.show(event);
      if (timeline.settled && !batch.partial) break;
    }
  } catch (error) {
    if (!AgentTraceError.isInstance(error)) throw error;
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: error.message };
  }
  return { exitCode: exitCodes.ok, stdout: '', stderr: warnings.join('\n') };
}

/** The slowest and fastest playback: slower would take days, faster shows nothing. */
const speedRange = { min: 0.01, max: 1_000_000 } as const;
/** The longest pause of a playback: a gap between runs of hours is not replayed as one. */
const maxPauseMs = 10_000;

/**
 * `agent-trace replay <trace> --speed <x>`: plays a recorded trace back with its original timing,
 * `x` times faster (0.01 to 1,000,000), as timeline lines; no pause is longer than 10 s.
 */
export async function playbackCommand(
  file: string,
  speed: number,
  options: FollowOptions,
): Promise<CommandResult> {
  if (!(Number.isFinite(speed) && speed >= speedRange.min && speed <= speedRange.max)) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Invalid --speed ${String(speed)}: expected a number from ${speedRange.min} to ${speedRange.max}, e.g. --speed 1 (real time) or --speed 10.`,
    };
  }
  const timeline = new Timeline(options);
  const input = new TraceInput(file);
  let previous: number | undefined;
  try {
    for await (const event of input.events()) {
      if (options.signal?.aborted === true) break;
      const at = Date.parse(event.time);
      const waitMs =
        previous === undefined ? 0 : Math.min(maxPauseMs, Math.max(0, at - previous) / speed);
      if (waitMs > 0) await new Promise(resolve => setTimeout(resolve, waitMs));
      previous = at;
      timeline.show(event);
    }
  } catch (error) {
    return unreadableTrace(error, file);
  }
  return { exitCode: exitCodes.ok, stdout: '', stderr: input.warningText };
}
