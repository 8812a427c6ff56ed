/** The commands that run today's code against a recording: rerun and fork. */
import { exitCodes } from '../commands/command-result.js';
import type { AddCommand } from './command-context.js';
import { commandModules as load } from './command-modules.js';
import { defined } from '@agent-trace/core/internal';

/** `agent-trace rerun`: today's code against a recording. */
export const addRerun: AddCommand = (program, { style, onResult }) => {
  program
    .command('rerun')
    .description(
      "Run today's agent code again against a recorded trace, offline: models answer from the recording, tools too (unless --live-tools); report the first divergence, explained.",
    )
    .argument('<trace>', 'a JSONL trace file, e.g. traces/refund.jsonl')
    .requiredOption(
      '--agent <module>',
      'a module whose default export is the entry agent, a workflow, or a planned run { planner, tools, agents } (its code runs: trusted modules only)',
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
        const { rerunCommand } = await load.rerun();
        onResult(
          await rerunCommand(file, {
            agentModule: options.agent,
            liveTools: options.liveTools === true,
            json: options.json === true,
            style,
            ...defined('html', options.html),
          }),
        );
      },
    );
};

/** `agent-trace fork`: a recorded run rebuilt to a step, then answered by another model. */
export const addFork: AddCommand = (program, { style, onResult }) => {
  program
    .command('fork')
    .description(
      'Time travel: rebuild a recorded run up to a model answer (from the recording), then let another model answer from there; prints the fork.',
    )
    .argument('<trace>', 'a JSONL trace file, e.g. traces/refund.jsonl')
    .requiredOption(
      '--agent <module>',
      'a module whose default export is the entry agent, or a planned run { planner, tools, agents } (its code runs: trusted modules only)',
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
        const { forkCommand } = await load.fork();
        onResult(
          await forkCommand(file, {
            agentModule: options.agent,
            afterStep,
            model: options.model,
            liveTools: options.liveTools === true,
            style,
            ...defined('baseUrl', options.baseUrl),
            ...defined('out', options.out),
          }),
        );
      },
    );
};
