/** The command that records people's judgments of runs: feedback. */
import { InvalidArgumentError } from 'commander';
import type { AddCommand } from './command-context.js';
import { commandModules as load } from './command-modules.js';

/** Parses `--score`: any finite number. */
const score = (value: string): number => {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number))
    throw new InvalidArgumentError('--score is a number, e.g. 1 or -1 for thumbs, 4 of 5.');
  return number;
};

/** `agent-trace feedback`: a person's judgment of a finished run, into its trace. */
export const addFeedback: AddCommand = (program, { style, onResult }) => {
  program
    .command('feedback')
    .description(
      "Record a person's judgment of a finished run (a score, a label, a comment, who) as a feedback event in its trace: replay, the viewer, SQL (the feedback view) and OTLP read it.",
    )
    .argument('<trace>', 'the JSONL trace file the run was written to')
    .requiredOption('--run <id>', 'the run judged: its id')
    .option('--score <number>', 'a score: 1 or -1 for thumbs up or down, or a rating', score)
    .option('--label <label>', 'a label, e.g. wrong-order')
    .option('--comment <text>', 'what the person said')
    .option('--by <who>', 'who gave it')
    .option('--json', 'print the recorded event as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace feedback traces/desk.jsonl --run run_8f2 --score -1 --comment "wrong order"\n  agent-trace feedback traces/desk.jsonl --run run_8f2 --label refund-ok --by ana\n\nExit codes: 0 recorded, 2 a wrong feedback, run or file (nothing written).',
    )
    .action(
      async (
        file: string,
        options: {
          run: string;
          score?: number;
          label?: string;
          comment?: string;
          by?: string;
          json?: boolean;
        },
      ) => {
        const { feedbackCommand } = await load.feedback();
        onResult(await feedbackCommand(file, { ...options, style }));
      },
    );
};
