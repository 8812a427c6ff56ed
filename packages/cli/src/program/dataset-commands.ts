/** The commands that grow eval datasets from recorded runs: dataset add, list, show and diff. */
import type { Command } from 'commander';
import type { AddCommand } from './command-context.js';
import { commandModules as load } from './command-modules.js';
import { collect, whole } from './option-parsers.js';

/** `agent-trace dataset …`: datasets grown from recorded runs, with their versions. */
export const addDataset: AddCommand = (program, { style, onResult }) => {
  const dataset = program
    .command('dataset')
    .description(
      'Turn recorded runs into eval cases (input, output and trajectory as expected values, lineage to the run), deduplicated by input, with content-hash versions.',
    );
  addSubcommand(
    dataset,
    'add',
    'Add the runs a trace library selects to a .jsonl dataset (made when missing).',
  )
    .argument('<dataset>', 'the .jsonl dataset file, e.g. evals/desk.jsonl')
    .requiredOption('--from <folder>', 'the folder of traces (its library)')
    .option(
      '--where <sql>',
      'SQL over the runs view, e.g. "run IN (SELECT run FROM feedback WHERE score < 0)"',
    )
    .option('--run <id>', 'this run; repeat it for more', collect, [])
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace dataset add evals/desk.jsonl --from traces --where "run IN (SELECT run FROM feedback WHERE score < 0)"\n  agent-trace dataset add evals/desk.jsonl --from traces --run 6d954b2a\n\nExit codes: 0 added (or nothing new), 2 the selection, the library or the dataset is wrong.',
    )
    .action(
      async (
        file: string,
        options: { from: string; where?: string; run: string[]; json?: boolean },
      ) => {
        const { datasetAddCommand } = await load.dataset();
        onResult(await datasetAddCommand(file, { ...options, runs: options.run, style }));
      },
    );
  addSubcommand(dataset, 'list', 'List the datasets under a folder, with their versions.')
    .argument('[folder]', 'where to look', '.')
    .action(async (folder: string, options: { json?: boolean }) => {
      const { datasetListCommand } = await load.dataset();
      onResult(await datasetListCommand(folder, { ...options, style }));
    });
  addSubcommand(
    dataset,
    'show',
    'Show a dataset (or a version of it: file@version): its history and cases.',
  )
    .argument('<dataset>', 'a .jsonl dataset, or file@version')
    .option('--limit <n>', 'the most cases shown', whole('--limit'), 20)
    .action(async (spec: string, options: { json?: boolean; limit: number }) => {
      const { datasetShowCommand } = await load.dataset();
      onResult(await datasetShowCommand(spec, { ...options, style }));
    });
  addSubcommand(
    dataset,
    'diff',
    'What changed between two versions of a dataset; with one file, its last change.',
  )
    .argument('<a>', 'a dataset file, or file@version')
    .argument('[b]', 'another (default: the file as it is now)')
    .action(async (a: string, b: string | undefined, options: { json?: boolean }) => {
      const { datasetDiffCommand } = await load.dataset();
      onResult(await datasetDiffCommand(a, b, { ...options, style }));
    });
};

function addSubcommand(parent: Command, name: string, description: string): Command {
  return parent.command(name).description(description).option('--json', 'print JSON');
}
