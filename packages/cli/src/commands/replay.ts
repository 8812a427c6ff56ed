import { buildRunTrees } from '../render/span-tree.js';
import { renderRunTree } from '../render/render-trace.js';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadTrace } from './load-trace.js';

/** Options of {@link replayCommand}. */
export interface ReplayCommandOptions {
  /** Print the span trees as JSON instead of text. @defaultValue false */
  readonly json?: boolean;
  readonly style: Style;
}

/**
 * `agent-trace replay <trace.jsonl>`: renders every run of a trace as a tree of agents, model
 * calls and tool calls, with the stop reason. Exit 0, or 2 when the trace cannot be read.
 */
export async function replayCommand(
  file: string,
  options: ReplayCommandOptions,
): Promise<CommandResult> {
  const loaded = await loadTrace(file);
  if (!loaded.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: loaded.message };
  const trees = buildRunTrees(loaded.events);
  const warning =
    loaded.tornTail === undefined
      ? ''
      : `warning: ${file}:${loaded.tornTail.line}: the last line has no newline (a write cut short by a crash); it was skipped.`;
  if (options.json === true) {
    return {
      exitCode: exitCodes.ok,
      stdout: JSON.stringify({ file, runs: trees, tornTail: loaded.tornTail ?? null }, null, 2),
      stderr: warning,
    };
  }
  if (trees.length === 0) {
    return { exitCode: exitCodes.ok, stdout: `${file}: no events.`, stderr: warning };
  }
  const text = trees.map(tree => renderRunTree(tree, { style: options.style })).join('\n\n');
  return { exitCode: exitCodes.ok, stdout: text, stderr: warning };
}
