/** The commands that run today's code against a recording: rerun and fork. */
import { exitCodes, type CommandResult } from '../commands/command-result.js';
import type { Style } from '../render/style.js';
import type { AddCommand } from './command-context.js';
import { commandModules as load } from './command-modules.js';
import { defined } from '@agent-trace/core/util';
import type { DecisionFlags } from '../commands/fork-decisions.js';
import { collect } from './option-parsers.js';

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
    .option(
      '--run <id|number>',
      'rerun only this run of the file (its id, or its number from 1); repeat for several. Default: every run',
      collect,
      [] as string[],
    )
    .option('--json', 'print the report as JSON')
    .option(
      '--html <file>',
      'also write the comparison as a viewer page: recording and rerun side by side',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  agent-trace rerun traces/refund.jsonl --agent ./src/support-desk.ts\n  agent-trace rerun traces/refund.jsonl --agent ./src/support-desk.ts --html rerun.html\n  agent-trace rerun traces/evals.jsonl --agent ./src/support-desk.ts --run 2\n  agent-trace rerun traces/data-pipeline.jsonl --agent examples/data-pipeline/pipeline.ts\n\nExit codes: 0 same behaviour, 1 diverged, 2 unreadable.',
    )
    .action(
      async (
        file: string,
        options: {
          agent: string;
          liveTools?: boolean;
          json?: boolean;
          html?: string;
          run: string[];
        },
      ) => {
        const { rerunCommand } = await load.rerun();
        onResult(
          await rerunCommand(file, {
            agentModule: options.agent,
            liveTools: options.liveTools === true,
            runs: options.run,
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
    .option(
      '--after-step <n>',
      'model answers of the recording to reproduce before the fork (0: fork at the first)',
    )
    .option(
      '--turn <k>',
      'fork a conversation at a turn: rebuild the turns before it, then take it again',
    )
    .option('--conversation <id>', 'the conversation to fork at --turn (default: the first)')
    .option('--message <text>', 'what the person says at --turn (default: what they said)')
    .requiredOption('--model <provider:name>', 'who answers from the fork on, e.g. openai:gpt-4o')
    .option('--base-url <url>', "the model's endpoint (openai-compatible servers, proxies)")
    .option('--out <file>', "write the fork's trace (JSONL) to this file")
    .option('--live-tools', 'run the real tools before the fork too')
    .option('--run <id|number>', 'the run of the file to fork (its id, or its number from 1)')
    .option('--approve <call>', 'approve a call that waits (its id, or its tool)', collect, [])
    .option('--reject <call>', 'refuse a call that waits (its id, or its tool)', collect, [])
    .option('--reason <text>', 'why the calls --reject names are refused (the model reads it)')
    .option('--by <name>', 'who decides, as the trace records it')
    .option('--decisions <file>', 'a JSON file of decisions: [{"callId", "decision", "args"?}]')
    .addHelpText(
      'after',
      '\nA pause before the fork point goes on as recorded unless a decision names its call; a pause after it needs one. With --turn, a conversation is forked at a turn instead of a run at a step.\n\nExamples:\n  agent-trace fork traces/refund.jsonl --agent ./src/desk.ts --after-step 3 --model openai:gpt-4o --out fork.jsonl\n  agent-trace fork traces/chat.jsonl --agent ./src/desk.ts --turn 3 --model openai:gpt-4o --message "And a refund?"\n  agent-trace fork traces/refund.jsonl --agent ./src/desk.ts --after-step 2 --model openai:gpt-4o --reject refund --reason "over the limit"\n\nExit codes: 0 steps up to the fork reproduced, 1 not reproduced, 2 unreadable.',
    )
    .action(async (file: string, options: ForkFlags) =>
      onResult(await forkOf(file, options, style)),
    );
};

/** `fork --turn`: a conversation forked at a turn. */
async function forkAtTurn(
  file: string,
  options: {
    readonly agent: string;
    readonly turn: string;
    readonly conversation?: string;
    readonly message?: string;
    readonly model: string;
    readonly baseUrl?: string;
    readonly out?: string;
  },
  style: Style,
): Promise<CommandResult> {
  const turn = Number(options.turn);
  if (!Number.isInteger(turn) || turn < 1)
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `--turn takes a turn of the conversation, 1 or more (got '${options.turn}').`,
    };
  const { forkTurnCommand } = await load.fork();
  return forkTurnCommand(file, {
    agentModule: options.agent,
    turn,
    model: options.model,
    style,
    ...defined('conversation', options.conversation),
    ...defined('message', options.message),
    ...defined('baseUrl', options.baseUrl),
    ...defined('out', options.out),
  });
}

/** The flags of `fork`, as commander gives them. */
type ForkFlags = {
  readonly agent: string;
  readonly afterStep?: string;
  readonly turn?: string;
  readonly conversation?: string;
  readonly message?: string;
  readonly model: string;
  readonly baseUrl?: string;
  readonly out?: string;
  readonly liveTools?: boolean;
  readonly run?: string;
} & DecisionFlags;

/** `fork`: a run forked after a model answer, or a conversation at a turn. */
async function forkOf(file: string, options: ForkFlags, style: Style): Promise<CommandResult> {
  const unreadable = (stderr: string): CommandResult => ({
    exitCode: exitCodes.unreadable,
    stdout: '',
    stderr,
  });
  if ((options.afterStep === undefined) === (options.turn === undefined))
    return unreadable(
      'fork needs --after-step <n> (a run, forked after a model answer) or --turn <k> (a conversation, forked at a turn), and only one of them.',
    );
  if (options.turn !== undefined)
    return forkAtTurn(file, { ...options, turn: options.turn }, style);
  const afterStep = Number(options.afterStep);
  if (!Number.isInteger(afterStep) || afterStep < 0)
    return unreadable(
      `--after-step takes a whole number of model answers, 0 or more (got '${options.afterStep}').`,
    );
  const { forkCommand, forkDecisions } = await load.fork();
  const decisions = await forkDecisions(options);
  if (typeof decisions === 'string') return unreadable(decisions);
  return forkCommand(file, {
    agentModule: options.agent,
    afterStep,
    model: options.model,
    liveTools: options.liveTools === true,
    style,
    decisions,
    ...defined('baseUrl', options.baseUrl),
    ...defined('out', options.out),
    ...defined('run', options.run),
  });
}
