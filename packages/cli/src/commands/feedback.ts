import { AgentTraceError } from '@agent-trace/core';
import { recordFeedback } from '@agent-trace/trace';
import { feedbackText } from '@agent-trace/trace/model';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';

/** Options of {@link feedbackCommand}: the feedback and how to print it. */
export interface FeedbackCommandOptions {
  readonly run: string;
  readonly score?: number;
  readonly label?: string;
  readonly comment?: string;
  readonly by?: string;
  /** Print the recorded event as JSON. @defaultValue false */
  readonly json?: boolean;
  readonly style: Style;
}

/**
 * `agent-trace feedback <trace> --run <id> --score -1 --comment "wrong order"`: records a person's
 * judgment of a finished run as a `feedback` event appended to its trace file. Exit 0 when
 * recorded, 2 when the feedback or the file is wrong (nothing is written then).
 */
export async function feedbackCommand(
  file: string,
  options: FeedbackCommandOptions,
): Promise<CommandResult> {
  try {
    const event = await recordFeedback(
      file,
      {
        run: options.run,
        ...(options.score === undefined ? {} : { score: options.score }),
        ...(options.label === undefined ? {} : { label: options.label }),
        ...(options.comment === undefined ? {} : { comment: options.comment }),
        ...(options.by === undefined ? {} : { by: options.by }),
      },
      { source: 'cli' },
    );
    const stdout =
      options.json === true
        ? JSON.stringify(event, null, 2)
        : `${options.style.green('recorded')} ${feedbackText(event)} on run ${event.run} (${file}, seq ${event.seq}, id ${event.id}).`;
    return { exitCode: exitCodes.ok, stdout, stderr: '' };
  } catch (error) {
    if (!AgentTraceError.isInstance(error)) throw error;
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: error.message };
  }
}
