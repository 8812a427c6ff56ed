import { Command, CommanderError } from 'commander';
import type { CommandResult } from './commands/command-result.js';
import { diffCommand } from './commands/diff.js';
import { exportCommand } from './commands/export.js';
import { followCommand, playbackCommand } from './commands/follow.js';
import { rerunCommand } from './commands/rerun.js';
import { forkCommand } from './commands/fork.js';
import { exitCodes } from './commands/command-result.js';
import { statsCommand } from './commands/stats.js';
import { replayCommand } from './commands/replay.js';
import { validateCommand } from './commands/validate.js';
import { pageLimitMb, serveCommand, viewCommand } from './commands/view.js';
import { createStyle, shouldColor } from './render/style.js';

/** Where the CLI writes and what it knows of its terminal. */
export interface CliIo {
  /** Writes a piece of output; when it returns a promise, the command waits for it (back-pressure). */
  stdout(text: string): unknown;
  stderr(text: string): void;
  readonly env: NodeJS.ProcessEnv;
  readonly isTTY: boolean;
  /** Stops commands that run until stopped (`view --serve`); without it they run until the process ends. */
  readonly signal?: AbortSignal;
}

/**
 * Builds the `agent-trace` program. Each command's action stores its result; `runCli` prints it
 * and turns it into the exit code.
 */
export function createProgram(io: CliIo, onResult: (result: CommandResult) => void): Command {
  const style = createStyle(shouldColor(io.env, { isTTY: io.isTTY }));
  const program = new Command('agent-trace')
    .description('Render, check and compare agent-trace JSONL traces.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: text => void io.stdout(text.trimEnd()),
      writeErr: text => io.stderr(text.trimEnd()),
    })
    .exitOverride();

  program
    .command('replay')
    .description(
      'Render a recorded run as a tree: agents, model calls (tokens, ms), tool calls (args, result, ms, errors), the stop reason.',
    )
    .argument('<trace>', 'a JSONL trace file, e.g. traces/demo.jsonl')
    .option('--json', 'print the span trees as JSON')
    .option('--agent <module>', 'deprecated: use agent-trace rerun <trace> --agent <module>')
    .option('--live-tools', 'deprecated, with --agent: see agent-trace rerun')
    .option('--follow', 'print the events of a trace still being written, live, until its runs end')
    .option(
      '--speed <factor>',
      'play the trace back with its original timing, this many times faster',
      Number,
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace replay traces/demo.jsonl\n  agent-trace replay traces/demo.jsonl --json > demo.json\n  agent-trace replay traces/live.jsonl --follow\n  agent-trace replay traces/demo.jsonl --speed 10\n\nExit codes: 0 rendered, 2 unreadable.',
    )
    .action(
      async (
        file: string,
        options: {
          json?: boolean;
          agent?: string;
          liveTools?: boolean;
          follow?: boolean;
          speed?: number;
        },
      ) => {
        const timeline = { style, write: (line: string) => void io.stdout(line) };
        if (options.follow === true) return onResult(await followCommand(file, timeline));
        if (options.speed !== undefined) {
          return onResult(await playbackCommand(file, options.speed, timeline));
        }
        if (options.agent !== undefined) {
          const result = await rerunCommand(file, {
            agentModule: options.agent,
            liveTools: options.liveTools === true,
            json: options.json === true,
            style,
          });
          const note = `note: 'replay --agent' is now 'agent-trace rerun ${file} --agent ${options.agent}'; replay only renders.`;
          return onResult({ ...result, stderr: [note, result.stderr].filter(Boolean).join('\n') });
        }
        return onResult(
          await replayCommand(file, {
            json: options.json === true,
            style,
            write: text => io.stdout(text),
          }),
        );
      },
    );

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
            ...(options.diff === undefined ? {} : { diff: options.diff }),
            ...(options.out === undefined ? {} : { out: options.out }),
            open: options.open,
            maxPageMb: options.maxPageMb,
            env: io.env,
          }),
        );
      },
    );

  program
    .command('rerun')
    .description(
      "Run today's agent code again against a recorded trace, offline: models answer from the recording, tools too (unless --live-tools); report the first divergence, explained.",
    )
    .argument('<trace>', 'a JSONL trace file, e.g. traces/refund.jsonl')
    .requiredOption(
      '--agent <module>',
      'a module whose default export is the entry agent, or a workflow (its code runs: trusted modules only)',
    )
    .option('--live-tools', 'run the real tools instead of answering with the recorded results')
    .option('--json', 'print the report as JSON')
    .option(
      '--html <file>',
      'also write the comparison as a viewer page: recording and rerun side by side',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace rerun traces/refund.jsonl --agent ./src/support-desk.ts\n  agent-trace rerun traces/refund.jsonl --agent ./src/support-desk.ts --html rerun.html\n  agent-trace rerun traces/data-pipeline.jsonl --agent examples/data-pipeline/pipeline.ts\n\nExit codes: 0 same behaviour, 1 diverged, 2 unreadable.',
    )
    .action(
      async (
        file: string,
        options: { agent: string; liveTools?: boolean; json?: boolean; html?: string },
      ) => {
        onResult(
          await rerunCommand(file, {
            agentModule: options.agent,
            liveTools: options.liveTools === true,
            json: options.json === true,
            style,
            ...(options.html === undefined ? {} : { html: options.html }),
          }),
        );
      },
    );

  program
    .command('fork')
    .description(
      'Time travel: rebuild a recorded run up to a model answer (from the recording), then let another model answer from there; prints the fork.',
    )
    .argument('<trace>', 'a JSONL trace file, e.g. traces/refund.jsonl')
    .requiredOption(
      '--agent <module>',
      'a module whose default export is the entry agent (its code runs: trusted modules only)',
    )
    .requiredOption(
      '--after-step <n>',
      'model answers of the recording to reproduce before the fork (0: fork at the first)',
    )
    .requiredOption('--model <provider:name>', 'who answers from the fork on, e.g. openai:gpt-4o')
    .option('--base-url <url>', "the model's endpoint (openai-compatible servers, proxies)")
    .option('--out <file>', "write the fork's trace (JSONL) to this file")
    .option('--live-tools', 'run the real tools before the fork too')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace fork traces/refund.jsonl --agent ./src/desk.ts --after-step 3 --model openai:gpt-4o --out fork.jsonl\n\nExit codes: 0 steps up to the fork reproduced, 1 not reproduced, 2 unreadable.',
    )
    .action(
      async (
        file: string,
        options: {
          agent: string;
          afterStep: string;
          model: string;
          baseUrl?: string;
          out?: string;
          liveTools?: boolean;
        },
      ) => {
        const afterStep = Number(options.afterStep);
        if (!Number.isInteger(afterStep) || afterStep < 0) {
          onResult({
            exitCode: exitCodes.unreadable,
            stdout: '',
            stderr: `--after-step takes a whole number of model answers, 0 or more (got '${options.afterStep}').`,
          });
          return;
        }
        onResult(
          await forkCommand(file, {
            agentModule: options.agent,
            afterStep,
            model: options.model,
            liveTools: options.liveTools === true,
            style,
            ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
            ...(options.out === undefined ? {} : { out: options.out }),
          }),
        );
      },
    );

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
      onResult(await validateCommand(file, { json: options.json === true, style }));
    });

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
      onResult(await diffCommand(first, second, { json: options.json === true, style }));
    });

  program
    .command('stats')
    .description(
      'Per agent, tool and model: calls, errors, retries, p50/p95 durations, tokens; the stop reason.',
    )
    .argument('<trace>', 'a JSONL trace file')
    .option('--json', 'print the figures as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace stats traces/demo.jsonl\n\nExit codes: 0, 2 unreadable.',
    )
    .action(async (file: string, options: { json?: boolean }) => {
      onResult(
        await statsCommand(file, {
          json: options.json === true,
          style,
          write: text => io.stdout(text),
        }),
      );
    });

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
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace export traces/demo.jsonl --otlp http://127.0.0.1:4317\n  agent-trace export traces/demo.jsonl --otlp http://127.0.0.1:4318 --protocol http\n\nExit codes: 0 all spans sent, 1 some not accepted, 2 unreadable.',
    )
    .action(async (file: string, options: { otlp: string; protocol: string }) => {
      onResult(
        await exportCommand(file, {
          endpoint: options.otlp,
          protocol: options.protocol as 'grpc' | 'http',
          style,
        }),
      );
    });

  return program;
}

/**
 * Runs the CLI on `argv` (without the node and script entries) and returns the exit code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let result: CommandResult | undefined;
  const program = createProgram(io, value => (result = value));
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  if (result === undefined) {
    io.stderr(program.helpInformation().trimEnd());
    return 2;
  }
  if (result.stdout !== '') await io.stdout(result.stdout);
  if (result.stderr !== '') io.stderr(result.stderr);
  return result.exitCode;
}
