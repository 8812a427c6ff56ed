/** The commands that read traces: replay, validate, diff, stats and export. */
import type { AddCommand } from './command-context.js';
import { commandModules as load } from './command-modules.js';

/** `agent-trace replay`: render a trace, follow it live, or play it back. */
export const addReplay: AddCommand = (program, { io, style, onResult }) => {
  program
    .command('replay')
    .description(
      'Render a recorded run as a tree: agents, model calls (tokens, ms), tool calls (args, result, ms, errors), the stop reason.',
    )
    .argument('<trace>', 'a JSONL trace file, e.g. traces/demo.jsonl')
    .option('--json', 'print the span trees as JSON')
    .option(
      '--run <id|n>',
      'only this run: its id, or its place (1, 2, …); repeat it for more',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--follow', 'print the events of a trace still being written, live, until its runs end')
    .option(
      '--speed <factor>',
      'play the trace back with its original timing, this many times faster',
      Number,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace replay traces/demo.jsonl\n  agent-trace replay traces/demo.jsonl --run 2\n  agent-trace replay traces/demo.jsonl --json > demo.json\n  agent-trace replay traces/live.jsonl --follow\n  agent-trace replay traces/demo.jsonl --speed 10\n\nExit codes: 0 rendered, 2 unreadable.',
    )
    .action(
      async (
        file: string,
        options: { json?: boolean; run?: string[]; follow?: boolean; speed?: number },
      ) => {
        const timeline = { style, write: (line: string) => void io.stdout(line) };
        if (options.follow === true || options.speed !== undefined) {
          const { followCommand, playbackCommand } = await load.follow();
          return onResult(
            await (options.speed === undefined
              ? followCommand(file, timeline)
              : playbackCommand(file, options.speed, timeline)),
          );
        }
        const { replayCommand } = await load.replay();
        return onResult(
          await replayCommand(file, {
            json: options.json === true,
            ...(options.run === undefined ? {} : { runs: options.run }),
            style,
            write: text => io.stdout(text),
          }),
        );
      },
    );
};

/** `agent-trace validate`: check a trace against its rules. */
export const addValidate: AddCommand = (program, { style, onResult }) => {
  program
    .command('validate')
    .description(
      'Check a trace: schema of every line, seq gaps and duplicates, unpaired starts and ends, torn tail, missing run_end.',
    )
    .argument('<trace>', 'a JSONL trace file')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace validate traces/demo.jsonl\n\nExit codes: 0 valid, 1 invalid, 2 unreadable.',
    )
    .action(async (file: string, options: { json?: boolean }) => {
      const { validateCommand } = await load.validate();
      onResult(await validateCommand(file, { json: options.json === true, style }));
    });
};

/** `agent-trace diff`: what two traces did, step by step. */
export const addDiff: AddCommand = (program, { style, onResult }) => {
  program
    .command('diff')
    .description(
      'Compare what two traces did, step by step, ids and times aside; an inserted step is reported once.',
    )
    .argument('<first>', 'the reference trace')
    .argument('<second>', 'the trace to compare with it')
    .option('--json', 'print the differences as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace diff traces/before.jsonl traces/after.jsonl\n\nExit codes: 0 same, 1 different, 2 unreadable.',
    )
    .action(async (first: string, second: string, options: { json?: boolean }) => {
      const { diffCommand } = await load.diff();
      onResult(await diffCommand(first, second, { json: options.json === true, style }));
    });
};

/** `agent-trace stats`: figures per agent, tool and model. */
export const addStats: AddCommand = (program, { io, style, onResult }) => {
  program
    .command('stats')
    .description(
      'Per agent, tool and model: calls, errors, retries, p50/p95 durations, tokens; the stop reason.',
    )
    .argument('<traces...>', 'JSONL trace files, or a quoted glob such as "traces/*.jsonl"')
    .option('--json', 'print the figures as JSON')
    .addHelpText(
      'after',
      '\nSeveral traces are read one after the other, each under its name, then totalled across all their runs.\n\nExamples:\n  agent-trace stats traces/demo.jsonl\n  agent-trace stats traces/a.jsonl traces/b.jsonl\n  agent-trace stats "traces/*.jsonl"\n\nExit codes: 0, 2 unreadable.',
    )
    .action(async (files: string[], options: { json?: boolean }) => {
      const { statsCommand } = await load.stats();
      onResult(
        await statsCommand(files, {
          json: options.json === true,
          style,
          write: text => io.stdout(text),
        }),
      );
    });
};

/** The flags of `agent-trace export`, as commander parses them. */
interface ExportFlags {
  readonly otlp: string;
  readonly protocol: string;
  readonly serviceName?: string;
  readonly openInference?: boolean;
}

/** `agent-trace export`: a recorded trace to an OTLP collector. */
export const addExport: AddCommand = (program, { style, onResult }) => {
  program
    .command('export')
    .description(
      'Send a recorded trace as OpenTelemetry spans (GenAI conventions) to Jaeger or any OTLP collector, with its original ids and times.',
    )
    .argument('<trace>', 'a JSONL trace file')
    .requiredOption(
      '--otlp <url>',
      'the collector, e.g. http://127.0.0.1:4317 (gRPC) or http://127.0.0.1:4318 (HTTP)',
    )
    .option('--protocol <protocol>', 'grpc or http', 'grpc')
    .option(
      '--service-name <name>',
      'service.name of the spans (and the Phoenix project with --open-inference); default OTEL_SERVICE_NAME, else agent-trace',
    )
    .option(
      '--open-inference',
      'also write the OpenInference attributes Arize Phoenix reads (span kinds, session, the run input and output, the project); default TRACE_OTLP_OPENINFERENCE',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace export traces/demo.jsonl --otlp http://127.0.0.1:4317\n  agent-trace export traces/demo.jsonl --otlp http://127.0.0.1:4318 --protocol http\n  agent-trace export traces/demo.jsonl --otlp http://127.0.0.1:6006 --protocol http --open-inference --service-name demo\n\nExit codes: 0 all spans sent, 1 some not accepted, 2 unreadable.',
    )
    .action(async (file: string, options: ExportFlags) => {
      const { exportCommand } = await load.export();
      onResult(
        await exportCommand(file, {
          endpoint: options.otlp,
          protocol: options.protocol as 'grpc' | 'http',
          ...(options.serviceName === undefined ? {} : { serviceName: options.serviceName }),
          ...(options.openInference === true ? { openInference: true } : {}),
          style,
        }),
      );
    });
};
