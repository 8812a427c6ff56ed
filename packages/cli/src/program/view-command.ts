/** The view and serve commands: pages of traces, and the served viewer. */
import { pageLimitMb } from '../commands/page-limit.js';
import type { Served } from '../commands/serve.js';
import type { AddCommand, CommandContext } from './command-context.js';
import { commandModules as load } from './command-modules.js';
import { defined } from '@agent-trace/core/util';

/** Serves until the command is stopped, printing what `write` is told; `open` opens the page. */
async function serve(
  served: Served,
  port: number,
  host: string | undefined,
  { io }: CommandContext,
  open = false,
) {
  const opens = open && io.env.CI === undefined;
  const [{ serveCommand }, view] = await Promise.all([
    load.serve(),
    opens ? load.view() : undefined,
  ]);
  return serveCommand(served, {
    port,
    ...defined('host', host),
    write: line => void io.stdout(line),
    signal: io.signal ?? new AbortController().signal,
    ...(view === undefined ? {} : { onServing: (url: string) => view.openInBrowser(url, io.env) }),
  });
}

/** `agent-trace view`: a page of traces or a comparison; a trace too big for a page is served. */
export const addView: AddCommand = (program, context) => {
  const { io, onResult } = context;
  program
    .command('view')
    .description(
      'See traces in the browser: one self-contained HTML page with the runs, a waterfall, an inspector and the agent graph; --diff compares two traces. A trace past --max-page-mb is served instead, its rows read in windows.',
    )
    .argument('[traces...]', 'JSONL trace files, e.g. traces/demo.jsonl')
    .option('--diff <trace>', 'compare the trace with this one, run by run, step by step')
    .option('--out <file>', "where to write the page (default: the trace's path with .html)")
    .option('--no-open', 'only write the page and print its path')
    .option('--serve [folder]', 'serve a folder of traces: the same as agent-trace serve [folder]')
    .option('--port <port>', 'the port when served (0: a free one)', Number, 0)
    .option(
      '--max-page-mb <megabytes>',
      'the most trace a single page is made of; past it, view serves the trace (and refuses --out and --diff)',
      Number,
      pageLimitMb,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace view traces/demo.jsonl\n  agent-trace view traces/before.jsonl --diff traces/after.jsonl --out diff.html --no-open\n  agent-trace view traces/nightly-1gb.jsonl          # served: rows read in windows\n\nExit codes: 0 written (or served until stopped), 2 unreadable.',
    )
    .action(
      async (
        files: string[],
        options: {
          diff?: string;
          out?: string;
          open: boolean;
          serve?: string | true;
          port: number;
          maxPageMb: number;
        },
      ) => {
        if (options.serve !== undefined) {
          const folder = options.serve === true ? (files[0] ?? '.') : options.serve;
          return onResult(await serve({ folder }, options.port, undefined, context));
        }
        const { servedInstead, viewCommand } = await load.view();
        // An invalid limit is refused by viewCommand, saying so.
        const servable =
          options.out === undefined &&
          options.diff === undefined &&
          files.length > 0 &&
          options.maxPageMb > 0;
        const instead = servable ? await servedInstead(files, options.maxPageMb) : undefined;
        if (instead !== undefined) {
          io.stdout(instead);
          return onResult(await serve({ files }, options.port, undefined, context, options.open));
        }
        onResult(
          await viewCommand(files, {
            ...defined('diff', options.diff),
            ...defined('out', options.out),
            open: options.open,
            maxPageMb: options.maxPageMb,
            env: io.env,
          }),
        );
      },
    );
};

/** `agent-trace serve [folder]`: the viewer over a folder's trace library. */
export const addServe: AddCommand = (program, context) => {
  program
    .command('serve')
    .description(
      "Serve the viewer over a folder of traces: a runs page across every file (filtered by agent, tool, model, stop reason, errors, cost, duration, time, session and words), each run's rows read in windows by byte offset, new and growing files shown as they are written. It writes only what its page asks: people's feedback on a run, into the run's file, and with --datasets a run added to a dataset. 127.0.0.1 unless --host says otherwise (then it writes nothing).",
    )
    .argument('[folder]', 'the folder of traces (its index is kept in <folder>/.agent-trace)', '.')
    .option('--port <port>', 'the port (0: a free one)', Number, 0)
    .option('--host <address>', 'the address to listen on', '127.0.0.1')
    .option(
      '--datasets <folder>',
      'offer "Add to dataset" on each run: it adds the run to <folder>/<name>.jsonl, as agent-trace dataset add',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace serve traces\n  agent-trace serve traces --port 7400\n  agent-trace serve traces --datasets evals\n\nExit codes: 0 served until stopped, 2 the folder cannot be served.',
    )
    .action(async (folder: string, options: { port: number; host: string; datasets?: string }) => {
      context.onResult(
        await serve(
          { folder, ...defined('datasets', options.datasets) },
          options.port,
          options.host,
          context,
        ),
      );
    });
};
