import type { Agent } from '../kernel/agent/agent.js';
import { ConfigurationError } from '../kernel/errors/configuration-error.js';
import type { Message } from '../kernel/protocol/message.js';
import type { RunResult } from '../kernel/run/frame/runner-api.js';
import { run, stream, type RunStream } from './run.js';
import type { RunOptions } from './run-options.js';

/** Options of {@link conversation}: the options every turn runs with, and where it starts. */
export interface ConversationOptions extends Omit<
  RunOptions,
  'history' | 'session' | 'conversation'
> {
  /**
   * The conversation's id: every turn's `session` and `run_start.conversation.id`.
   * @defaultValue a random UUID
   */
  id?: string;
  /**
   * Where a conversation goes on from (one recorded elsewhere, `conversationFromTrace`): the turns
   * it has had and the messages they left. @defaultValue a new conversation
   */
  from?: { readonly turns: number; readonly messages: readonly Message[] };
}

/** A conversation with an agent: one run a turn, each starting from what the turns before left. */
export interface Conversation<Output = string> {
  /** The conversation's id: the session of every turn's events. */
  readonly id: string;
  /** How many turns it has had, those it went on from included. */
  readonly turnCount: number;
  /** The results of the turns taken through this object, in order. */
  readonly turns: readonly RunResult<Output>[];
  /** The conversation so far: what the next turn starts from (the last turn's `messages`). */
  readonly messages: readonly Message[];
  /** Takes a turn: runs the agent on `message` after the conversation so far. */
  send(message: string): Promise<RunResult<Output>>;
  /**
   * Takes a turn, streaming its chunks; the turn counts once its `result` resolves. Throws when a
   * turn is running.
   */
  stream(message: string): RunStream<Output>;
}

/**
 * A conversation with `agent`: each `send` (or `stream`) is a turn, a run of its own that starts
 * from the messages the turns before left (`history`), under the conversation's id as its session.
 * Each turn's `run_start` records the conversation and the turn's index with the history it
 * started from, so a rerun replays the person's messages turn by turn (`rerunConversation`). One
 * turn at a time: a turn asked for while another runs is refused.
 *
 * @example
 * ```ts
 * const chat = conversation(desk, { trace: jsonlSink('traces/chat.jsonl') });
 * await chat.send('My order 42 arrived broken.');
 * const second = await chat.send('Yes, a refund please.');
 * ```
 */
export function conversation<Output = string>(
  agent: Agent<Output>,
  options: ConversationOptions = {},
): Conversation<Output> {
  const { id = globalThis.crypto.randomUUID(), from, ...runOptions } = options;
  if (typeof id !== 'string' || id === '')
    throw new ConfigurationError({
      option: 'id',
      message: 'A conversation id must be a non-empty string.',
    });
  let messages: readonly Message[] = from?.messages ?? [];
  let count = from?.turns ?? 0;
  const turns: RunResult<Output>[] = [];
  let running = false;
  // The history the last turn taken here ran from: the next one records only what follows it.
  let ranFrom: readonly Message[] | undefined;
  let lastFrom: readonly Message[] | undefined;
  /** The options of the next turn; refused while a turn runs. */
  const next = (): RunOptions => {
    if (running)
      throw new ConfigurationError({
        option: 'conversation',
        message: `Conversation '${id}' is taking turn ${count}: await its result before the next turn.`,
      });
    running = true;
    count++;
    const history = messages.length === 0 ? {} : { history: messages };
    const carried = carriedCount(lastFrom, messages);
    ranFrom = messages;
    const turn = { id, turn: count, ...(carried === undefined ? {} : { carried }) };
    return { ...runOptions, ...history, session: id, conversation: turn };
  };
  const took = (result: RunResult<Output>): RunResult<Output> => {
    running = false;
    lastFrom = ranFrom;
    messages = result.messages;
    turns.push(result);
    return result;
  };
  // A turn refused before it ran (a bad option) is not a turn.
  const failed = (error: unknown): never => {
    running = false;
    count--;
    throw error;
  };
  return {
    id,
    get turnCount() {
      return count;
    },
    turns,
    get messages() {
      return messages;
    },
    send(message) {
      let turn: RunOptions;
      try {
        turn = next();
      } catch (error) {
        return Promise.reject(error);
      }
      return run(agent, message, turn).then(took, failed);
    },
    stream(message) {
      const turn = stream(agent, message, next());
      // Asking for a stream's result before reading it would drain it: settled once read.
      let settled: Promise<RunResult<Output>> | undefined;
      const settle = () => (settled ??= turn.result.then(took, failed));
      return {
        async *[Symbol.asyncIterator]() {
          try {
            yield* turn;
          } finally {
            settle().catch(() => undefined);
          }
        },
        get result() {
          return settle();
        },
      };
    },
  };
}

/**
 * How many of `history`'s first messages are `before` (the history the previous turn ran from,
 * which its `run_start` recorded), so this turn's `run_start` records only the rest
 * (`conversation.carried`); undefined when there is no previous turn in this trace, or `history`
 * does not begin with those very messages. Shared by `conversation()` and a conversation's rerun.
 */
export function carriedCount(
  before: readonly Message[] | undefined,
  history: readonly Message[],
): number | undefined {
  if (before === undefined || before.length > history.length) return undefined;
  for (let index = 0; index < before.length; index++)
    if (before[index] !== history[index]) return undefined;
  return before.length;
}
