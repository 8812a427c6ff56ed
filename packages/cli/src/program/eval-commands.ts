/** The commands of evals: run them, list their experiments, compare two, see them. */
import { InvalidArgumentError, type Command } from 'commander';
import { defined } from '@agent-trace/core/util';
import type { EvalThreshold } from '@agent-trace/evals';
import { whole } from './option-parsers.js';
import type { AddCommand, CommandContext } from './command-context.js';
import { commandModules as load } from './command-modules.js';

const storeOption = ['--store <dir>', 'the experiment store', '.agent-trace'] as const;

/** `agent-trace eval`: run evals; `eval list`, `eval compare` and `eval view` their experiments. */
export const addEval: AddCommand = (program, context) => {
  const command = program
    .command('eval')
    .description(
      'Run evals (modules whose default export is defineEval(...)) as experiments kept in the store (.agent-trace); list, compare and see them.',
    );
  addRun(command, context);
  addList(command, context);
  addCompare(command, context);
  addView(command, context);
};

/** `agent-trace eval [run] <files...>`: the default subcommand, so `eval x.eval.ts` runs it. */
function addRun(command: Command, { io, onResult }: CommandContext) {
  command
    .command('run <files...>', { isDefault: true })
    .description(
      'Run evals as experiments: every case and trial scored, each with its trace, kept in the store.',
    )
    .option('--filter <text>', 'only the cases whose id holds this text')
    .option('--trials <n>', 'runs of each case', whole('--trials'))
    .option('--concurrency <n>', 'cases at once', whole('--concurrency'))
    .option('--shard <i/n>', 'only shard i of n (shards run anywhere add up to the whole)')
    .option('--experiment <id>', "the experiment's id: shards given one id write one experiment")
    .option(...storeOption)
    .option(
      '--threshold <[scorer=]mean>',
      "the mean a scorer must reach (0 to 1): one for every scorer, or scorer=mean (repeat it); over defineEval's threshold",
      thresholdOption,
    )
    .option('--allow-failed', 'exit 0 even when a task threw (the failed runs are still named)')
    .option('--json', "print each experiment's result (every case and score) as JSON")
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace eval evals/refunds.eval.ts\n  agent-trace eval evals/*.eval.ts --trials 3 --shard 1/2 --experiment "$CI_RUN_ID"\n  agent-trace eval evals/refunds.eval.ts --threshold 0.9 --threshold judge=0.7\n  agent-trace eval compare --fail-on-regression --markdown "$GITHUB_STEP_SUMMARY"\n\nExit codes: 0 ran and passed, 1 a task threw (without --allow-failed) or a scorer\'s mean is under its threshold (the cases named), 2 an eval could not be loaded or run, 130 stopped by Ctrl-C (finished cases kept).',
    )
    .action(
      async (
        files: string[],
        options: {
          filter?: string;
          trials?: number;
          concurrency?: number;
          shard?: string;
          experiment?: string;
          store: string;
          threshold?: EvalThreshold;
          allowFailed?: boolean;
          json?: boolean;
        },
      ) => {
        const { evalCommand } = await load.eval();
        const stop = io.interrupt?.();
        try {
          onResult(
            await evalCommand(files, {
              ...options,
              json: options.json === true,
              allowFailed: options.allowFailed === true,
              env: io.env,
              ...defined('signal', stop?.signal),
              ...defined('progress', io.progress),
            }),
          );
        } finally {
          stop?.release();
        }
      },
    );
}

/** `--threshold 0.8` (every scorer) or `--threshold judge=0.8` (one; repeatable). */
function thresholdOption(value: string, previous: EvalThreshold | undefined): EvalThreshold {
  const match = /^(?:([^=]+)=)?(\d*\.?\d+)$/.exec(value.trim());
  const mean = Number(match?.[2]);
  if (match === null || !(mean >= 0 && mean <= 1))
    throw new InvalidArgumentError(
      `expected a mean from 0 to 1, for every scorer (--threshold 0.8) or one (--threshold judge=0.8).`,
    );
  const scorer = match[1];
  if (scorer === undefined) return mean;
  return { ...(typeof previous === 'object' ? previous : {}), [scorer.trim()]: mean };
}

function addList(command: Command, { onResult }: CommandContext) {
  command
    .command('list')
    .description('The experiments kept, newest first: status, branch and commit, means, cost.')
    .option(...storeOption)
    .option('--eval <name>', 'only this eval')
    .option('--limit <n>', 'at most this many', whole('--limit'))
    .option('--json', 'print them as JSON')
    .action(async (options: { store: string; eval?: string; limit?: number; json?: boolean }) => {
      const { evalListCommand } = await load.eval();
      onResult(await evalListCommand({ ...options, json: options.json === true }));
    });
}

function addCompare(command: Command, { onResult }: CommandContext) {
  command
    .command('compare')
    .description(
      "Compare two experiments (by default each eval's newest against the newest on main): per scorer the means and the difference with a 95% interval, the regressed cases with why, the flaky ones.",
    )
    .argument('[baseline]', 'an experiment id (or the start of one), or an eval result .json')
    .argument('[candidate]', 'the same; default: the newest experiment of the eval')
    .option(...storeOption)
    .option('--branch <name>', 'the branch whose newest experiment is the baseline', 'main')
    .option('--eval <name>', 'only this eval')
    .option(
      '--fail-on-regression [tolerance]',
      'exit 1 when a case dropped by more than the tolerance (default 0)',
    )
    .option('--json', 'print the comparison as JSON')
    .option('--junit <file>', 'also write it as JUnit XML')
    .option('--markdown <file>', 'also write it as Markdown, e.g. "$GITHUB_STEP_SUMMARY"')
    .addHelpText(
      'after',
      '\nExit codes: 0 compared (no regression past the tolerance), 1 regressed with --fail-on-regression, 2 nothing to compare.',
    )
    .action(
      async (
        baseline: string | undefined,
        candidate: string | undefined,
        options: {
          store: string;
          branch: string;
          eval?: string;
          failOnRegression?: string | boolean;
          json?: boolean;
          junit?: string;
          markdown?: string;
        },
      ) => {
        const tolerance =
          options.failOnRegression === undefined
            ? undefined
            : options.failOnRegression === true
              ? 0
              : Number(options.failOnRegression);
        if (tolerance !== undefined && !(tolerance >= 0))
          throw new InvalidArgumentError('--fail-on-regression takes a tolerance of 0 or more.');
        const { evalCompareCommand } = await load.evalCompare();
        onResult(
          await evalCompareCommand(baseline, candidate, {
            store: options.store,
            branch: options.branch,
            json: options.json === true,
            ...defined('eval', options.eval),
            ...defined('failOnRegression', tolerance),
            ...defined('junit', options.junit),
            ...defined('markdown', options.markdown),
          }),
        );
      },
    );
}

function addView(command: Command, { io, onResult }: CommandContext) {
  command
    .command('view')
    .description(
      "See an experiment in the browser: cases × scorers with each case's change against the baseline; a case opens its trace, or both experiments' traces of it side by side.",
    )
    .argument('[candidate]', 'an experiment id (or the start of one); default: the newest')
    .option(...storeOption)
    .option('--baseline <id>', 'the experiment to compare with (default: the newest on --branch)')
    .option('--branch <name>', 'the branch whose newest experiment is the baseline', 'main')
    .option('--eval <name>', 'the eval whose newest experiment is shown')
    .option('--out <file>', 'where to write the page (default: experiment.html in its folder)')
    .option('--no-open', 'only write the page and print its path')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace eval view\n  agent-trace eval view --out eval-report.html --no-open   # one file, for CI artifacts\n\nExit codes: 0 written, 2 nothing to show.',
    )
    .action(
      async (
        candidate: string | undefined,
        options: {
          store: string;
          baseline?: string;
          branch: string;
          eval?: string;
          out?: string;
          open: boolean;
        },
      ) => {
        const { evalViewCommand } = await load.evalView();
        onResult(await evalViewCommand(candidate, { ...options, env: io.env }));
      },
    );
}
