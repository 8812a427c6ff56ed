import type { Command } from 'commander';
import type { CommandResult } from '../commands/command-result.js';
import type { Style } from '../render/style.js';

/** Where the CLI writes and what it knows of its terminal. */
export interface CliIo {
  /** Writes a piece of output; when it returns a promise, the command waits for it (back-pressure). */
  stdout(text: string): unknown;
  stderr(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  readonly isTTY: boolean;
  /** Stops commands that run until stopped (`serve`, and `view` of a big trace); without it they run until the process ends. */
  readonly signal?: AbortSignal;
  /**
   * Lets a long command stop cleanly on Ctrl-C while it runs (`eval`): the signal fires on the
   * first one, and `release` gives Ctrl-C back. Without it, Ctrl-C ends the process.
   */
  readonly interrupt?: () => { readonly signal: AbortSignal; release(): void };
  /** Shows a progress line in place, or clears it (undefined); given only on a terminal. */
  readonly progress?: (line: string | undefined) => void;
}

/** What each command's registration needs: the io, the style, and where its result goes. */
export interface CommandContext {
  readonly io: CliIo;
  readonly style: Style;
  readonly onResult: (result: CommandResult) => void;
}

/** Adds one command to the program. */
export type AddCommand = (program: Command, context: CommandContext) => void;
