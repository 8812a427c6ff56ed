/** The commands of evals: run them, and compare two experiments. */
import { InvalidArgumentError } from 'commander';
import { evalCommand, evalCompareCommand } from '../commands/eval.js';
import type { AddCommand } from './command-context.js';

const whole = (name: string) => (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new InvalidArgumentError(`${name} is a whole number, 1 or more.`);
  return number;
};

/** `agent-trace eval`: run evals, and `eval compare` two of their experiments. */
export const addEval: AddCommand = (program, { onResult }) => {
  const command = program
    .command('eval')
    .description(
      'Run evals (modules whose default export is defineEval(...)): every case and trial, scored; the experiment (result.json and a trace per case) goes to --out.',
    )
    .argument('<files...>', 'eval modules, e.g. evals/refunds.eval.ts')
    .option('--filter <text>', 'only the cases whose id holds this text')
    .option('--trials <n>', 'runs of each case', whole('--trials'))
    .option('--concurrency <n>', 'cases at once', whole('--concurrency'))
    .option('--shard <i/n>', 'only shard i of n (shards run anywhere add up to the whole)')
    .option('--out <dir>', 'where experiments go', '.agent-trace/experiments')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace eval evals/refunds.eval.ts\n  agent-trace eval evals/*.eval.ts --trials 3 --shard 1/2\n  agent-trace eval compare base/result.json head/result.json --fail-on-regression\n\nExit codes: 0 ran, 2 an eval could not be loaded.',
    )
    .action(
      async (
        files: string[],
        options: {
          filter?: string;
          trials?: number;
          concurrency?: number;
          shard?: string;
          out: string;
        },
      ) => {
        onResult(await evalCommand(files, { ...options, now: () => new Date() }));
      },
    );
  command
    .command('compare')
    .description(
      "Compare two experiments' result.json: per scorer the means and the difference with a 95% interval, the regressed cases with why, the flaky ones.",
    )
    .argument('<baseline>', 'the baseline result.json')
    .argument('<candidate>', 'the candidate result.json')
    .option(
      '--fail-on-regression [tolerance]',
      'exit 1 when a case dropped by more than the tolerance (default 0)',
    )
    .option('--json', 'print the comparison as JSON')
    .action(
      (
        baseline: string,
        candidate: string,
        options: { failOnRegression?: string | boolean; json?: boolean },
      ) => {
        const tolerance =
          options.failOnRegression === undefined
            ? undefined
            : options.failOnRegression === true
              ? 0
              : Number(options.failOnRegression);
        onResult(
          evalCompareCommand(baseline, candidate, {
            json: options.json === true,
            ...(tolerance === undefined ? {} : { failOnRegression: tolerance }),
          }),
        );
      },
    );
};
