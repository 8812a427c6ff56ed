import type { Message, RunOptions, TraceEvent } from '@agent-trace/core';
import { carriedCount } from '@agent-trace/core/conversation';

/** Which turn of which conversation a run is. */
export interface TurnOf {
  readonly id: string;
  readonly turn: number;
}

/**
 * The agent's turn a recorded run is, from its `run_start`; undefined for a run that is no turn,
 * or a simulated user's reply (a rerun replays what the user said).
 */
export function agentTurnOf(start: TraceEvent): TurnOf | undefined {
  if (start.event !== 'run_start' || start.conversation === undefined) return undefined;
  const { id, turn, role } = start.conversation;
  return role === undefined ? { id, turn } : undefined;
}

/**
 * What recorded turns rerun one after another hand on: a turn's rerun starts from what the rerun
 * of the turn just before it left (its recorded history otherwise), under the conversation's id.
 * One carry is shared by `rerunConversation` and `agent-trace rerun`.
 */
export class ConversationCarry {
  readonly #left = new Map<string, Left>();
  /** The history each turn asked for ran from, until it is taken. */
  readonly #ranFrom = new Map<string, readonly Message[] | undefined>();

  /**
   * The run options of a recorded run's rerun: `base` for a run that is no turn; for a turn,
   * `base` under the conversation's id, from what its previous turn's rerun left when it was rerun
   * (recording only what that turn's history did not hold, as `conversation()` does).
   */
  runOptions<Options extends Omit<RunOptions, 'overrides'>>(
    turn: TurnOf | undefined,
    base: Options | undefined,
  ): Options | Omit<RunOptions, 'overrides'> | undefined {
    if (turn === undefined) return base;
    const before = this.#left.get(turn.id);
    const follows = before?.turn === turn.turn - 1 ? before : undefined;
    this.#ranFrom.set(turn.id, follows?.messages);
    if (follows === undefined) return { ...base, session: turn.id, conversation: turn };
    const carried = carriedCount(follows.ranFrom, follows.messages);
    return {
      ...base,
      history: follows.messages,
      session: turn.id,
      conversation: carried === undefined ? turn : { ...turn, carried },
    };
  }

  /** What a turn's rerun left: the next turn starts from it. */
  took(turn: TurnOf | undefined, messages: readonly Message[] | undefined): void {
    if (turn === undefined || messages === undefined) return;
    this.#left.set(turn.id, { turn: turn.turn, messages, ranFrom: this.#ranFrom.get(turn.id) });
  }
}

/** What a turn's rerun left, and the history it ran from (undefined: its recorded one). */
interface Left {
  readonly turn: number;
  readonly messages: readonly Message[];
  readonly ranFrom: readonly Message[] | undefined;
}
