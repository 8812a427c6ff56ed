import type { RunFilter, RunFilterFields, RunSort } from '@agent-trace/trace/library';
import { Option, type Command } from 'commander';
import type { LibraryOptions, RowFormat } from '../commands/library.js';
import type { AddCommand, CommandContext } from './command-context.js';
import { commandModules as load } from './command-modules.js';

const dirOption = () =>
  new Option('--dir <folder>', 'the folder of traces (its index is in .agent-trace/)').default(
    'traces',
  );

const formatOptions = (command: Command) =>
  command.option('--json', 'one JSON object a row').option('--csv', 'CSV with a header row');

function formatOf(options: { json?: boolean; csv?: boolean }): RowFormat {
  return options.json === true ? 'json' : options.csv === true ? 'csv' : 'table';
}

function libraryOptions(dir: string, { io, style }: CommandContext): LibraryOptions {
  return { dir, style, ...(io.progress === undefined ? {} : { progress: io.progress }) };
}

/** `agent-trace index`: the folder's index, brought up to date. */
export const addIndex: AddCommand = (program, context) => {
  program
    .command('index')
    .description(
      'Index a folder of traces for SQL (DuckDB, kept in <folder>/.agent-trace/): new and grown files are read from where the index stopped.',
    )
    .argument('[folder]', 'the folder of traces', 'traces')
    .addHelpText('after', '\nExit codes: 0 indexed, 2 the folder or DuckDB is missing.')
    .action(async (folder: string) => {
      const { indexCommand } = await load.library();
      context.onResult(await indexCommand(libraryOptions(folder, context)));
    });
};

/** `agent-trace query`: SQL over the index's views. */
export const addQuery: AddCommand = (program, context) => {
  formatOptions(
    program
      .command('query')
      .description(
        'Run SQL over the traces of a folder (updating its index first): the views runs, agents, llm_calls, tool_calls, handoffs and events.',
      )
      .argument(
        '<sql>',
        'the query, e.g. "SELECT run, cost_usd FROM runs ORDER BY cost_usd DESC LIMIT 20"',
      )
      .addOption(dirOption()),
  )
    .addHelpText('after', '\nExit codes: 0 answered, 2 the query failed or the folder is missing.')
    .action(async (sql: string, options: { dir: string; json?: boolean; csv?: boolean }) => {
      const { queryCommand } = await load.library();
      context.onResult(
        await queryCommand(sql, {
          ...libraryOptions(options.dir, context),
          format: formatOf(options),
        }),
      );
    });
};

interface RunsFlags extends RunFilterFields {
  dir: string;
  sort: RunSort;
  limit: string;
  json?: boolean;
  csv?: boolean;
}

/** `agent-trace runs`: the runs of a folder, filtered and sorted. */
export const addRuns: AddCommand = (program, context) => {
  formatOptions(
    program
      .command('runs')
      .description(
        'List the runs of a folder of traces (updating its index first), filtered and sorted.',
      )
      .addOption(dirOption())
      .option('--agent <name>', 'runs where this agent ran')
      .option('--tool <name>', 'runs that called this tool')
      .option('--model <name>', 'runs that called this model')
      .option('--stop <reason>', "this stop reason; 'failed' for any but completed and interrupted")
      .option('--error [type]', 'runs with an error (of this type)')
      .option('--session <id>', 'runs of this session')
      .option('--since <duration>', 'started within, e.g. 2h, 7d')
      .option('--until <duration>', 'started before, e.g. 1d ago: 1d')
      .option('--min-cost <usd>', 'cost at least')
      .option('--max-cost <usd>', 'cost at most')
      .option('--min-duration <ms>', 'took at least')
      .option('--text <words>', 'in the input or output, a model answer, tool arguments or results')
      .addOption(
        new Option('--sort <by>', 'largest first')
          .choices(['time', 'cost', 'duration', 'tokens'])
          .default('time'),
      )
      .option('--limit <n>', 'at most this many', '50'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace runs --tool refund --stop failed --since 7d --sort cost\n  agent-trace runs --text "order A-1" --json\n\nExit codes: 0 listed, 2 the folder is missing or a flag is invalid.',
    )
    .action(async (flags: RunsFlags) => {
      const [{ runFilterOf }, { runsCommand }] = await Promise.all([
        load.runFilter(),
        load.library(),
      ]);
      let filter: RunFilter;
      try {
        filter = runFilterOf(flags, Date.now());
      } catch (error) {
        context.onResult({ exitCode: 2, stdout: '', stderr: `${(error as Error).message}\n` });
        return;
      }
      context.onResult(
        await runsCommand(filter, {
          ...libraryOptions(flags.dir, context),
          format: formatOf(flags),
        }),
      );
    });
};
