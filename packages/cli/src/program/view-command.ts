/** The view command: pages of traces and the served folder. */
import { pageLimitMb, serveCommand, viewCommand } from '../commands/view.js';
import type { AddCommand } from './command-context.js';
import { defined } from '@agent-trace/core/internal';

/** `agent-trace view`: a page of traces, a comparison, or a served folder. */
export const addView: AddCommand = (program, { io, onResult }) => {
  program
    .command('view')
    .description(
      'See traces in the browser: one self-contained HTML page with the runs, a waterfall, an inspector and the agent graph; --diff compares two traces; --serve follows a folder of traces live.',
    )
    .argument('[traces...]', 'JSONL trace files, e.g. traces/demo.jsonl')
    .option('--diff <trace>', 'compare the trace with this one, run by run, step by step')
    .option('--out <file>', "where to write the page (default: the trace's path with .html)")
    .option('--no-open', 'only write the page and print its path')
    .option(
      '--serve [folder]',
      "serve the folder's traces on 127.0.0.1, updating runs as they are written",
    )
    .option('--port <port>', 'the port for --serve (0: a free one)', Number, 0)
    .option(
      '--max-page-mb <megabytes>',
      'the most trace a single page is made of; past it, view refuses and points to --serve',
      Number,
      pageLimitMb,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace view traces/demo.jsonl\n  agent-trace view traces/before.jsonl --diff traces/after.jsonl --out diff.html --no-open\n  agent-trace view --serve traces --port 7400\n\nExit codes: 0 written (or served until stopped), 2 unreadable.',
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
          return onResult(
            await serveCommand(folder, {
              port: options.port,
              write: line => void io.stdout(line),
              signal: io.signal ?? new AbortController().signal,
            }),
          );
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
