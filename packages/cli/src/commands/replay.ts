import { isJudgment, type TraceEvent, type TraceEventOf } from '@agent-trace/core';
import { groupRuns } from '@agent-trace/trace';
import { buildRunTrees, judgmentText } from '@agent-trace/trace/model';
import { plural } from '../render/plural.js';
import { runNamed } from './select-runs.js';
import { renderRunTree } from '../render/render-trace.js';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { TraceInput, unreadableTrace } from './trace-input.js';

/** Options of {@link replayCommand}. */
export interface ReplayCommandOptions {
  /** Print the span trees as JSON instead of text. @defaultValue false */
  readonly json?: boolean;
  /** Only these runs: ids, or 1-based places in the order the runs start in the file. */
  readonly runs?: readonly string[];
  readonly style: Style;
  /** Writes a piece of the output (a run's rendering); the command waits when it returns a promise. */
  readonly write: (text: string) => unknown;
}

/**
 * `agent-trace replay <trace.jsonl>`: renders every run of a trace as a tree of agents, model
 * calls and tool calls, with the stop reason. Runs are read, rendered and written one at a time,
 * so a trace of any size is replayed in the memory of its largest run. Exit 0, or 2 when the
 * trace cannot be read.
 */
export async function replayCommand(
  file: string,
  options: ReplayCommandOptions,
): Promise<CommandResult> {
  const input = new TraceInput(file);
  const wanted = new WantedRuns(options.runs ?? []);
  let rendered = 0;
  try {
    if (options.json === true)
      await options.write(`{\n  "file": ${JSON.stringify(file)},\n  "runs": [`);
    for await (const run of groupRuns(wanted.watch(input.events()))) {
      if (!wanted.takes(run.run)) continue;
      for (const tree of buildRunTrees(run.events)) {
        const text =
          options.json === true
            ? JSON.stringify(tree, null, 2)
            : renderRunTree(tree, { style: options.style });
        await options.write(`${rendered > 0 ? (options.json === true ? ',' : '\n') : ''}${text}`);
        rendered++;
      }
    }
  } catch (error) {
    return unreadableTrace(error, file);
  }
  const judged = wanted.judgments.filter(event => wanted.takes(event.run));
  const feedback = judged.filter(event => event.event === 'feedback');
  const evaluations = judged.filter(event => event.event === 'evaluation');
  if (options.json === true) {
    await options.write(
      `],\n  "feedback": ${JSON.stringify(feedback)},\n  "evaluations": ${JSON.stringify(evaluations)},\n  "tornTail": ${JSON.stringify(input.tornTail ?? null)},\n  "warnings": ${JSON.stringify(input.warnings)}\n}`,
    );
  } else {
    if (feedback.length > 0)
      await options.write(judgmentLines('Feedback', feedback, options.style));
    if (evaluations.length > 0)
      await options.write(judgmentLines('Evaluations', evaluations, options.style));
  }
  const missing = wanted.missing();
  if (missing !== undefined) return { exitCode: exitCodes.unreadable, stdout: '', stderr: missing };
  return {
    exitCode: exitCodes.ok,
    stdout: rendered === 0 && options.json !== true ? `${file}: no events.` : '',
    stderr: input.warningText,
  };
}

/** What judged the runs after their end (people's feedback, scorers' evaluations), a line each. */
function judgmentLines(
  title: string,
  judged: readonly TraceEventOf<'feedback' | 'evaluation'>[],
  style: Style,
): string {
  const lines = judged.map(
    event =>
      `  ${style.cyan(judgmentText(event))}  ${style.dim(`on run ${event.run}, ${event.time}`)}`,
  );
  return `\n${style.bold(title)}\n${lines.join('\n')}\n`;
}

/**
 * The runs `--run` names, found as the trace streams by: an id, or a 1-based place in the order
 * the runs start in the file (as `rerun --run` counts them).
 */
class WantedRuns {
  readonly #order: string[] = [];
  readonly #found = new Set<string>();
  /** What judged runs after their end: people's feedback, scorers' evaluations. */
  readonly judgments: TraceEventOf<'feedback' | 'evaluation'>[] = [];

  constructor(readonly names: readonly string[]) {}

  /** The events, unchanged, noting the order in which runs first appear. */
  async *watch(events: AsyncIterable<TraceEvent>): AsyncGenerator<TraceEvent> {
    const seen = new Set<string>();
    for await (const event of events) {
      if (isJudgment(event)) this.judgments.push(event);
      else if (!seen.has(event.run)) {
        seen.add(event.run);
        this.#order.push(event.run);
      }
      yield event;
    }
  }

  /** Whether the run is one asked for (every run when none is named). */
  takes(run: string): boolean {
    if (this.names.length === 0) return true;
    const named = this.names.filter(name => runNamed(name, this.#order) === run);
    for (const name of named) this.#found.add(name);
    return named.length > 0;
  }

  /** What to say of the names no run answered to; undefined when every one did. */
  missing(): string | undefined {
    const unfound = this.names.filter(name => !this.#found.has(name));
    if (unfound.length === 0) return undefined;
    const runs = this.#order.map((run, at) => `${at + 1}. ${run}`).join(', ');
    return `--run ${unfound.join(', ')}: the trace has no such run. Its ${plural(this.#order.length, 'run')}: ${runs}.`;
  }
}
