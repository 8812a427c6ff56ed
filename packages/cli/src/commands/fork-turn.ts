import { model, type Agent } from '@agent-trace/core';
import { conversationFromTrace, memorySink, recordedConversation } from '@agent-trace/trace';
import { buildRunTrees } from '@agent-trace/trace/model';
import { defined } from '@agent-trace/core/util';
import { writeFile } from 'node:fs/promises';
import { renderRunTree } from '../render/render-trace.js';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { loadAgent } from './load-agent.js';
import { loadTrace } from './trace-input.js';

/** Options of {@link forkTurnCommand}. */
export interface ForkTurnCommandOptions {
  readonly agentModule: string;
  /** The turn taken again: the recorded turns before it are rebuilt from the recording. */
  readonly turn: number;
  /** The conversation, for a trace that holds several. @defaultValue the first */
  readonly conversation?: string;
  /** What the person says at the turn. @defaultValue what they said in the recording */
  readonly message?: string;
  /** Who answers the turn, as a model string (`openai:gpt-4o`). */
  readonly model: string;
  readonly baseUrl?: string;
  /** Writes the turn's trace (JSONL) here. */
  readonly out?: string;
  readonly style: Style;
}

/**
 * `agent-trace fork <trace> --agent <module> --turn K --model <provider:name>`: a conversation
 * forked at a turn. Rebuilds the recorded turns before K from the recording (no model call, no
 * tool run), then takes turn K again, with the recorded message (or `--message`), answered by the
 * named model. Exit 0 when the turns before K were rebuilt as recorded, 1 when today's code took
 * one of them otherwise, 2 when the trace, module, model or turn cannot be used.
 */
export async function forkTurnCommand(
  file: string,
  options: ForkTurnCommandOptions,
): Promise<CommandResult> {
  const loaded = await loadTrace(file);
  if (!loaded.ok) return loaded.result;
  const module = await loadAgent(options.agentModule);
  if (!module.ok) return { exitCode: exitCodes.unreadable, stdout: '', stderr: module.message };
  const stderr = [loaded.warnings, ...module.warnings].filter(line => line !== '').join('\n');
  try {
    const said = options.message ?? recordedMessage(loaded.events, options);
    const next = model(options.model, defined('baseURL', options.baseUrl));
    const trace = memorySink();
    const chat = await conversationFromTrace(loaded.events, module.agent as Agent, {
      ...module.runOptions,
      beforeTurn: options.turn,
      ...defined('conversationId', options.conversation),
      trace,
      overrides: { model: () => next },
    });
    const result = await chat.send(said);
    if (options.out !== undefined)
      await writeFile(
        options.out,
        trace.events.map(event => `${JSON.stringify(event)}\n`).join(''),
      );
    const { style } = options;
    const lines = [
      `Forked conversation '${chat.id}' of ${file} at turn ${options.turn}; ${options.model} answers it.`,
      `${style.green('✓')} ${options.turn === 1 ? 'no turn before it to rebuild' : `turns 1–${options.turn - 1} rebuilt as recorded`}`,
      `user:  ${said}`,
      `agent: ${result.output === '' ? `(no answer: ${result.stopReason})` : String(result.output)}`,
      '',
      ...buildRunTrees(trace.events).map(tree => renderRunTree(tree, { style })),
      ...(options.out === undefined ? [] : ['', `wrote ${options.out}`]),
    ];
    return { exitCode: exitCodes.ok, stdout: lines.join('\n'), stderr };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const diverged = message.includes('does not go on as recorded');
    return {
      exitCode: diverged ? exitCodes.failed : exitCodes.unreadable,
      stdout: '',
      stderr: [stderr, `Cannot fork ${file} at turn ${options.turn}: ${message}`]
        .filter(line => line !== '')
        .join('\n'),
    };
  } finally {
    await module.release();
  }
}

/** What the person said at the turn in the recording; throws when the trace has no such turn. */
function recordedMessage(
  events: Parameters<typeof recordedConversation>[0],
  { conversation, turn }: Pick<ForkTurnCommandOptions, 'conversation' | 'turn'>,
): string {
  const chosen = recordedConversation(events, conversation);
  const start = chosen.turns.find(each => each.turn === turn)?.events[0];
  if (start?.event !== 'run_start')
    throw new Error(
      `conversation '${chosen.id}' has no turn ${turn} to take again: give the message with --message`,
    );
  return start.input;
}
