import { InvalidArgumentError } from 'commander';
import { defined } from '@agent-trace/core/util';
import type { AddCommand } from './command-context.js';
import { commandModules as load } from './command-modules.js';
import type { RegressCommandOptions } from '../commands/regress.js';
import { collect, whole } from './option-parsers.js';

const dollars = (value: string): number => {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0)
    throw new InvalidArgumentError('--max-cost is an amount in US dollars, 0 or more.');
  return number;
};

interface Flags {
  agent: string;
  where?: string;
  run: string[];
  sample?: number;
  seed?: number;
  limit?: number;
  shard?: string;
  continueWith?: string;
  userModel?: string;
  eval?: string;
  maxCost?: number;
  concurrency?: number;
  store: string | false;
  failOnRegression?: boolean;
  failOnDivergence?: boolean;
  liveTools?: boolean;
  junit?: string;
  markdown?: string;
  json?: boolean;
}

/** `agent-trace regress`: a library of recorded runs as a regression suite for today's code. */
export const addRegress: AddCommand = (program, { io, style, onResult }) => {
  program
    .command('regress')
    .description(
      "Rerun a library's recorded runs against today's code: the same ones pass with no model call, diverged ones are named (where and why) and, with --continue-with, continued from there and scored against the recording.",
    )
    .argument('<library>', 'a folder of JSONL traces (indexed on the way), e.g. traces/')
    .requiredOption(
      '--agent <module>',
      "a module whose default export is today's entry agent, a workflow, a planned run or a bridged agent; it may export continueWith, the model that goes on from a divergence (its code runs: trusted modules only)",
    )
    .option('--where <sql>', "SQL over the library's runs view, e.g. \"entry_agent = 'desk'\"")
    .option('--run <id>', 'only this run (repeat for several)', collect, [] as string[])
    .option('--sample <n>', 'a seeded sample of this many of the selected runs', whole('--sample'))
    .option('--seed <n>', "the sample's seed", whole('--seed'))
    .option('--limit <n>', 'at most this many runs, the earliest first', whole('--limit'))
    .option('--shard <i/n>', 'one shard of n: run k (from 0) is in shard k % n + 1')
    .option(
      '--continue-with <model>',
      'the model that goes on from a divergence, e.g. openai:gpt-4o-mini',
    )
    .option(
      '--user-model <model>',
      'with --continue-with, plays the person of a diverged conversation for the turns after it',
    )
    .option(
      '--eval <file>',
      "an eval module whose scorers score each case (default: regress's own)",
    )
    .option('--max-cost <usd>', 'start no continuation once they have cost this much', dollars)
    .option('--concurrency <n>', 'runs at once', whole('--concurrency'))
    .option(
      '--store <dir>',
      'the experiment store that keeps the regress as two experiments (recorded, today)',
      '.agent-trace',
    )
    .option('--no-store', 'keep no experiments')
    .option('--fail-on-regression', 'exit 1 when a continued run scores worse than its recording')
    .option(
      '--fail-on-divergence',
      'exit 1 when any run diverged from its recording (continued or not)',
    )
    .option(
      '--live-tools',
      'run the real tools instead of answering with the recorded results (their side effects happen again): finds the runs a change of a tool changes',
    )
    .option(
      '--junit <file>',
      'write the comparison as JUnit: a failing test per case that got worse',
    )
    .option('--markdown <file>', 'write the comparison as Markdown (a CI step summary)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace regress traces/ --agent ./src/desk.ts\n  agent-trace regress traces/ --agent ./src/desk.ts --where "input ILIKE \'%refund%\'" --continue-with openai:gpt-4o-mini --fail-on-regression\n\nExit codes: 0 ran, 1 a regression (with --fail-on-regression) or a divergence (with --fail-on-divergence), 2 a trace of the folder or the module could not be read, or a run could not be regressed, 130 stopped by Ctrl-C (finished runs kept).',
    )
    .action(async (folder: string, flags: Flags) => {
      const [{ regressCommand }, { shardOf }] = await Promise.all([load.regress(), load.eval()]);
      const shard = shardOf(flags.shard);
      if (typeof shard === 'string') throw new InvalidArgumentError(shard);
      const stop = io.interrupt?.();
      try {
        onResult(
          await regressCommand(folder, {
            ...commandOptions(flags, shard),
            style,
            ...defined('signal', stop?.signal),
          }),
        );
      } finally {
        stop?.release();
      }
    });
};

/** The command's options from its flags. */
function commandOptions(
  flags: Flags,
  shard: RegressCommandOptions['shard'],
): Omit<RegressCommandOptions, 'style' | 'signal'> {
  return {
    agentModule: flags.agent,
    runs: flags.run,
    failOnRegression: flags.failOnRegression === true,
    failOnDivergence: flags.failOnDivergence === true,
    liveTools: flags.liveTools === true,
    json: flags.json === true,
    ...defined('where', flags.where),
    ...defined('sample', flags.sample),
    ...defined('seed', flags.seed),
    ...defined('limit', flags.limit),
    ...defined('shard', shard),
    ...defined('continueWith', flags.continueWith),
    ...defined('userModel', flags.userModel),
    ...defined('evalModule', flags.eval),
    ...defined('junit', flags.junit),
    ...defined('markdown', flags.markdown),
    ...defined('maxCostUsd', flags.maxCost),
    ...defined('concurrency', flags.concurrency),
    ...(flags.store === false ? {} : { store: flags.store }),
  };
}
