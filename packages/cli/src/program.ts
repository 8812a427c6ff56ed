import { MissingPackageError } from './program/optional-package.js';
import { Command, CommanderError } from 'commander';
import type { CommandResult } from './commands/command-result.js';
import { createStyle, shouldColor } from './render/style.js';
import type { CliIo, CommandContext } from './program/command-context.js';
import {
  addDiff,
  addExport,
  addReplay,
  addStats,
  addValidate,
} from './program/reading-commands.js';
import { addFork, addRerun } from './program/running-commands.js';
import { addRegress } from './program/regress-command.js';
import { addEval } from './program/eval-commands.js';
import { addServe, addView } from './program/view-command.js';
import { addImport } from './program/import-command.js';
import { addFeedback } from './program/feedback-command.js';
import { addDataset } from './program/dataset-commands.js';
import { addIndex, addQuery, addRuns } from './program/library-commands.js';

export type { CliIo } from './program/command-context.js';

/**
 * Builds the `agent-trace` program. Each command's action stores its result; `runCli` prints it
 * and turns it into the exit code.
 */
export function createProgram(io: CliIo, onResult: (result: CommandResult) => void): Command {
  const context: CommandContext = {
    io,
    style: createStyle(shouldColor(io.env, { isTTY: io.isTTY })),
    onResult,
  };
  const program = new Command('agent-trace')
    .description('Render, check and compare agent-trace JSONL traces.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: text => void io.stdout(text.trimEnd()),
      writeErr: text => io.stderr(text.trimEnd()),
    })
    .exitOverride();
  // The order of the help's list of commands.
  for (const add of [
    addReplay,
    addView,
    addRerun,
    addFork,
    addRegress,
    addEval,
    addFeedback,
    addDataset,
    addValidate,
    addDiff,
    addStats,
    addExport,
    addImport,
    addIndex,
    addQuery,
    addRuns,
    addServe,
  ])
    add(program, context);
  return program;
}

/**
 * True for a `ConfigurationError` from any copy of `@agent-trace/core` (an environment variable or
 * option a command cannot use, e.g. `TRACE_OTLP_OPENINFERENCE=yes`): its message says what to fix,
 * so it is printed without a stack. Core is loaded only on this path, so a command starts without it.
 */
async function isConfigurationError(error: unknown): Promise<boolean> {
  const { AgentTraceError } = await import('@agent-trace/core');
  return AgentTraceError.isInstance(error) && error.name === 'ConfigurationError';
}

/**
 * Runs the CLI on `argv` (without the node and script entries) and returns the exit code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let result: CommandResult | undefined;
  const program = createProgram(io, value => (result = value));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof MissingPackageError || (await isConfigurationError(error))) {
      io.stderr((error as Error).message);
      return 2;
    }
    throw error;
  }
  if (result === undefined) {
    io.stderr(program.helpInformation().trimEnd());
    return 2;
  }
  if (result.stdout !== '') await io.stdout(result.stdout);
  if (result.stderr !== '') io.stderr(result.stderr);
  return result.exitCode;
}
