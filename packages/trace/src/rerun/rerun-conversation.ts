import type { Agent, AnyAgent, Message, RunResult, TraceEvent } from '@agent-trace/core';
import {
  conversation,
  type Conversation,
  type ConversationOptions,
} from '@agent-trace/core/conversation';
import { fromTraceMessage, RunHistories } from '@agent-trace/core/record';
import type { Divergence } from './compare-traces.js';
import { agentTurnOf, ConversationCarry } from './conversation-carry.js';
import { recordedEvents } from './recording.js';
import { rerunTrace, type RerunReport, type RerunTraceOptions } from './rerun-trace.js';

/** A recorded turn of a conversation: its index, its run, and that run's events. */
export interface RecordedTurn {
  readonly turn: number;
  readonly runId: string;
  readonly events: readonly TraceEvent[];
}

/** A conversation a trace holds: its id and its turns, in order. */
export interface RecordedConversation {
  readonly id: string;
  readonly turns: readonly RecordedTurn[];
}

/**
 * The conversations a trace holds (runs whose `run_start` names one), each with the agent's turns
 * in order (a simulated user's runs left out); the events of each turn's run, split once, its
 * `run_start` with the whole history the turn started from.
 */
export function recordedConversations(events: readonly TraceEvent[]): RecordedConversation[] {
  const byRun = new Map<string, TraceEvent[]>();
  const turnOf = new Map<string, { id: string; turn: number }>();
  // Each turn's events read alone: a turn's run_start gets its whole history.
  const histories = new RunHistories();
  for (const read of events) {
    const event = read.event === 'run_start' ? histories.whole(read) : read;
    let own = byRun.get(event.run);
    if (own === undefined) byRun.set(event.run, (own = []));
    own.push(event);
    const turn = agentTurnOf(event);
    if (turn !== undefined) turnOf.set(event.run, turn);
  }
  const conversations = new Map<string, RecordedTurn[]>();
  for (const [runId, { id, turn }] of turnOf) {
    let turns = conversations.get(id);
    if (turns === undefined) conversations.set(id, (turns = []));
    turns.push({ turn, runId, events: byRun.get(runId) ?? [] });
  }
  return [...conversations].map(([id, turns]) => ({
    id,
    turns: turns.sort((a, b) => a.turn - b.turn),
  }));
}

/** Options of {@link rerunConversation}. */
export interface ConversationRerunOptions extends Omit<RerunTraceOptions, 'runId'> {
  /** The conversation to rerun, for a trace that holds several. @defaultValue the first */
  conversationId?: string;
  /** Reruns the turns up to this one only. @defaultValue every recorded turn */
  throughTurn?: number;
}

/** A turn of a conversation rerun: its index, its recorded run, and what its rerun found. */
export interface TurnRerun {
  readonly turn: number;
  readonly runId: string;
  readonly report: RerunReport;
}

/** What a conversation's rerun found, turn by turn. */
export interface ConversationRerunReport {
  readonly id: string;
  /** True when every turn did exactly what its recording did. */
  readonly same: boolean;
  readonly turns: readonly TurnRerun[];
  /** The first turn that diverged, of how many, and where. */
  readonly firstDivergence:
    { readonly turn: number; readonly of: number; readonly divergence: Divergence } | undefined;
  /** What the rerun's conversation holds after its last turn. */
  readonly messages: readonly Message[];
  /** The last turn's result. */
  readonly result: RunResult<unknown> | undefined;
}

/**
 * Reruns a recorded conversation against today's agent, turn by turn: each turn replays the
 * person's recorded message, its model answers and tool results from that turn's recording, and
 * starts from what today's previous turn left (the first from its recorded history), so a change
 * shows at the turn it first touches and what follows from it. A divergence is named by turn.
 */
export async function rerunConversation(
  trace: readonly TraceEvent[] | string,
  agent: AnyAgent,
  options: ConversationRerunOptions = {},
): Promise<ConversationRerunReport> {
  const { conversationId, ...rerun } = options;
  return rerunTurns(
    recordedConversation(await recordedEvents(trace), conversationId),
    agent,
    rerun,
  );
}

/** Reruns a recorded conversation's turns in order (see {@link rerunConversation}). */
async function rerunTurns(
  chosen: RecordedConversation,
  agent: AnyAgent,
  { throughTurn, ...rerun }: Omit<ConversationRerunOptions, 'conversationId'>,
): Promise<ConversationRerunReport> {
  const turns: TurnRerun[] = [];
  const carry = new ConversationCarry();
  for (const { turn, runId, events } of chosen.turns) {
    if (throughTurn !== undefined && turn > throughTurn) break;
    const at = { id: chosen.id, turn };
    const report = await rerunTrace(events, agent, {
      ...rerun,
      runId,
      run: carry.runOptions(at, rerun.run),
    });
    turns.push({ turn, runId, report });
    carry.took(at, report.result.messages);
  }
  const diverged = turns.find(turn => !turn.report.same);
  return {
    id: chosen.id,
    same: diverged === undefined,
    turns,
    firstDivergence:
      diverged?.report.firstDivergence === undefined
        ? undefined
        : { turn: diverged.turn, of: turns.length, divergence: diverged.report.firstDivergence },
    messages: turns.at(-1)?.report.result.messages ?? [],
    result: turns.at(-1)?.report.result,
  };
}

/**
 * The conversation `id` of a trace's events (the first when undefined), with its turns; throws,
 * naming the conversations the trace holds, when it holds no such conversation.
 */
export function recordedConversation(
  events: readonly TraceEvent[],
  id?: string,
): RecordedConversation {
  const conversations = recordedConversations(events);
  const found = id === undefined ? conversations[0] : conversations.find(each => each.id === id);
  if (found !== undefined) return found;
  const known = conversations.map(each => `'${each.id}'`).join(', ');
  throw new Error(
    id === undefined
      ? 'The trace holds no conversation: no run_start names one (runs of conversation() do).'
      : `The trace holds no conversation '${id}'${known === '' ? '' : ` (it holds ${known})`}.`,
  );
}

/** Options of {@link conversationFromTrace}: the conversation's turns' options, and which one. */
export interface ConversationFromTraceOptions extends ConversationOptions {
  /** The conversation to go on with, for a trace that holds several. @defaultValue the first */
  conversationId?: string;
  /**
   * What to do when today's agent does not take the recorded turns as they were taken: refuse
   * (`throw`, naming the turn), or go on from what today's agent made of them (`continue`).
   * @defaultValue 'throw'
   */
  onDivergence?: 'throw' | 'continue';
  /**
   * Forks the conversation at this turn: only the recorded turns before it are rebuilt, and the
   * next `send` takes this turn again (with the recorded message, or another). From 1 (nothing
   * rebuilt) to one past the last recorded turn. @defaultValue after the last recorded turn
   */
  beforeTurn?: number;
}

/**
 * A recorded conversation, to go on with in this process: its turns are rerun against `agent`
 * from the trace (no model is called, no tool runs) to rebuild the conversation exactly, and the
 * next `send` is its next turn, under the same id. Give `options.trace` to record the new turns.
 */
export async function conversationFromTrace<Output = string>(
  trace: readonly TraceEvent[] | string,
  agent: Agent<Output>,
  options: ConversationFromTraceOptions = {},
): Promise<Conversation<Output>> {
  const { conversationId, onDivergence = 'throw', beforeTurn, ...conversationOptions } = options;
  // The turns rerun with the conversation's options (its features, prices), never into its trace
  // and never with its overrides (a fork's model answers its new turns only).
  const { trace: _sinks, id: _id, from: _from, overrides: _own, ...run } = conversationOptions;
  const chosen = recordedConversation(await recordedEvents(trace), conversationId);
  const throughTurn = forkedTurn(chosen, beforeTurn);
  const rerun = await rerunTurns(chosen, agent, {
    run,
    ...(throughTurn === undefined ? {} : { throughTurn }),
  });
  const first = rerun.firstDivergence;
  if (first !== undefined && onDivergence === 'throw')
    throw new Error(
      `Conversation '${rerun.id}' does not go on as recorded: turn ${first.turn} of ${first.of} diverges at ${first.divergence.expected ?? first.divergence.actual ?? 'an event'}. Pass onDivergence: 'continue' to go on from what today's agent made of it.`,
    );
  return conversation(agent, {
    ...conversationOptions,
    id: rerun.id,
    from: {
      turns: throughTurn ?? rerun.turns.at(-1)?.turn ?? 0,
      // Forked before the first turn the trace holds: from the history that turn started from.
      messages:
        rerun.turns.length === 0 && throughTurn !== undefined
          ? startedFrom(chosen, throughTurn + 1)
          : rerun.messages,
    },
  });
}

/** The whole history a recorded turn started from; empty when the trace does not hold it. */
function startedFrom(chosen: RecordedConversation, turn: number): Message[] {
  const start = chosen.turns.find(each => each.turn === turn)?.events[0];
  return start?.event === 'run_start' ? (start.history ?? []).map(fromTraceMessage) : [];
}

/** The last turn to rebuild for a fork `beforeTurn`, checked against the recorded turns. */
function forkedTurn(
  chosen: RecordedConversation,
  beforeTurn: number | undefined,
): number | undefined {
  if (beforeTurn === undefined) return undefined;
  const last = chosen.turns.at(-1)?.turn ?? 0;
  if (!Number.isInteger(beforeTurn) || beforeTurn < 1 || beforeTurn > last + 1)
    throw new Error(
      `Conversation '${chosen.id}' has turns 1 to ${last}: beforeTurn must be a whole number from 1 to ${last + 1} (got ${String(beforeTurn)}).`,
    );
  return beforeTurn - 1;
}
