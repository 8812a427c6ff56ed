import { buildRunTrees } from '@agent-trace/trace/model';
import { renderRunTree } from '../render/render-trace.js';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { TraceInput, unreadableTrace } from './trace-input.js';

/** Options of {@link replayCommand}. */
export interface ReplayCommandOptions {
  /** Print the span trees as JSON instead of text. @defaultValue false */
  readonly json?: boolean;
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
  let rendered = 0;
  try {
    if (options.json === true)
      await options.write(`{\n  "file": ${JSON.stringify(file)},\n  "runs": [`);
    for await (const run of input.runs()) {
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
  if (options.json === true) {
    await options.write(
      `],\n  "tornTail": ${JSON.stringify(input.tornTail ?? null)},\n  "warnings": ${JSON.stringify(input.warnings)}\n}`,
    );
  }
  return {
    exitCode: exitCodes.ok,
    stdout: rendered === 0 && options.json !== true ? `${file}: no events.` : '',
    stderr: input.warningText,
  };
}
