import {
  ToolCallError,
  isJudgment,
  toolCallErrorKinds,
  type Message,
  type ModelRequest,
  type ToolCallErrorKind,
  type TraceEvent,
  type TraceEventOf,
} from '@agent-trace/core';
import type { ApprovalDecision } from '@agent-trace/core/approval';
import { fromTraceMessage, runHistory, standaloneStart } from '@agent-trace/core/record';
import { canonicalJson } from '@agent-trace/core/util';
import { readTrace } from '../jsonl/read-trace.js';
import { CallTurns } from './call-turns.js';
import { concurrentAnswers } from './concurrent-answers.js';
import { ReplayClock } from './replay-clock.js';
import { decidedKinds, refusedModelCall } from './decided-kinds.js';
import { ReplayedStop } from './replayed-stop.js';
import { StepPace } from './step-pace.js';
import { TurnMatch } from './turn-match.js';

/** A recorded model call: the request's fingerprint and what came back. */
export interface RecordedCall {
  readonly start: TraceEventOf<'llm_start'>;
  readonly end: TraceEventOf<'llm_end'>;
}

/**
 * What a recorded run answered: each agent's model calls in order, and each tool result by tool
 * name and canonical arguments, in order (retries recorded one after another).
 */
export class Recording {
  readonly input: string;
  readonly #start: TraceEventOf<'run_start'>;
  readonly #trace: readonly TraceEvent[];
  #history: readonly Message[] | undefined;

  /**
   * The conversation the recorded run started from (its `history`, joined with the earlier turns'
   * for a turn of a conversation); empty when it started afresh. Throws for a turn whose earlier
   * turns the trace does not hold.
   */
  get history(): readonly Message[] {
    if (this.#history !== undefined) return this.#history;
    const whole = runHistory(this.#trace, this.#start);
    const turn = this.#start.conversation ?? { id: '', turn: 1 };
    if (whole === undefined)
      throw new Error(
        `Run '${this.runId}' is turn ${turn.turn} of conversation '${turn.id}', and its history goes on from turn ${turn.turn - 1}'s, which this trace does not hold. Rerun it from the file that holds the whole conversation (rerunConversation, or agent-trace rerun of that file).`,
      );
    return (this.#history = whole.map(fromTraceMessage));
  }
  /** The input of the run's first workflow, as given (a workflow run's input need not be text). */
  readonly workflowInput: unknown;
  readonly runId: string;
  /** The recorded run's own events, in the order written (a trace may hold several runs). */
  readonly events: readonly TraceEvent[];
  /**
   * The rerun's clock: virtual time from the recorded run's start, moved on by each recorded
   * answer handed out to when it arrived (see {@link ReplayClock}).
   */
  readonly clock: ReplayClock;
  /** When the recorded run started, on the recording's clock. */
  readonly startMs: number;
  /**
   * How the recorded run was stopped from outside (its caller's signal, a stream's reader, its
   * deadline), replayed where it happened once a rerun arms it (see {@link ReplayedStop}).
   */
  readonly stop: ReplayedStop;
  /**
   * When the recorded run's parts went on side by side: the times its steps were made, which a
   * rerun's steps wait for (see {@link StepPace}); undefined for a run that went one step at a time.
   */
  readonly pace: StepPace | undefined;
  /** Which recorded turn each of the rerun's turns is (see {@link TurnMatch}). */
  readonly turns: TurnMatch;
  readonly #calls = new Map<string, RecordedCall[]>();
  /** Which recorded turn each model call belongs to (an agent asked twice at once). */
  readonly #turns = new CallTurns();
  /** The answers that ran at the same time as another: they arrive in the order they came. */
  readonly #concurrent: ReadonlySet<string>;
  readonly #tools = new Map<string, TraceEventOf<'tool_end'>[]>();
  /** The tools whose calls ran an agent (an agent's span under the tool's). */
  readonly #agentTools = new Set<string>();
  /** The decisions each resumed part of the run went on with, in order. */
  readonly #decisions: ApprovalDecision[][] = [];

  /**
   * @param events - the recorded trace
   * @param run - the id of the run to answer from, when the trace holds several; the first run by default
   */
  constructor(events: readonly TraceEvent[], run?: string) {
    const start = events.find(
      (event): event is TraceEventOf<'run_start'> =>
        event.event === 'run_start' && (run === undefined || event.run === run),
    );
    if (start === undefined) {
      throw new Error(
        run === undefined
          ? 'The trace has no run_start: it cannot be rerun. Pass a complete trace (agent-trace validate tells what is missing).'
          : `The trace has no run '${run}'. Its runs are: ${recordedRuns(events).join(', ') || '(none)'}.`,
      );
    }
    if (run === undefined) warnFirstRunOnly(events, start.run);
    this.input = start.input;
    this.#start = start;
    this.#trace = events;
    this.runId = start.run;
    this.startMs = Date.parse(start.time);
    this.clock = new ReplayClock(this.startMs);
    // A conversation's turn whose history goes on from its previous turn's: its whole history, so
    // its events read alone (a comparison explains its requests from them).
    const whole = start.conversation?.carried === undefined ? undefined : runHistory(events, start);
    if (whole !== undefined) this.#history = whole.map(fromTraceMessage);
    // What judges the run (feedback, evaluations) is not something the run did.
    const own = events
      .filter(event => event.run === start.run && !isJudgment(event))
      .map(event =>
        event === start && whole !== undefined ? standaloneStart(start, whole) : event,
      );
    this.events = own;
    this.#concurrent = concurrentAnswers(own);
    this.stop = new ReplayedStop(own, this.startMs, this.clock, this.#concurrent);
    this.turns = new TurnMatch(own);
    this.pace =
      this.#concurrent.size === 0
        ? undefined
        : new StepPace(own, this.clock, this.turns, this.stop);
    const workflow = own.find(event => event.event === 'workflow_start');
    this.workflowInput = workflow?.event === 'workflow_start' ? workflow.input : start.input;
    const starts = new Map<string, TraceEventOf<'llm_start'>>();
    const toolSpans = new Map<string, string>();
    const handoffSpans = new Map<string, string | null>();
    for (const event of own) {
      if (event.event === 'tool_start') toolSpans.set(event.span_id, event.tool);
      else if (event.event === 'handoff_start')
        handoffSpans.set(event.span_id, event.parent_span_id);
      else if (event.event === 'agent_start' && event.parent_span_id !== null) {
        // Directly under the tool's span (a bridge), or under a handoff under it (agent.asTool()).
        const parent = handoffSpans.get(event.parent_span_id) ?? event.parent_span_id;
        const tool = toolSpans.get(parent);
        if (tool !== undefined) this.#agentTools.add(tool);
      }
      if (event.event === 'llm_start') starts.set(event.span_id, event);
      else if (event.event === 'llm_end') {
        const call = starts.get(event.span_id);
        // A breaker's or a feature's refusal never reached the model: a rerun decides again.
        if (call === undefined || refusedModelCall(event.error?.type)) continue;
        const recorded = { start: call, end: event };
        const list = this.#calls.get(event.agent) ?? [];
        list.push(recorded);
        this.#calls.set(event.agent, list);
        this.#turns.add(recorded);
      } else if (event.event === 'tool_end') {
        // A refusal the loop or a feature decided never reached the tool: a rerun decides it again.
        if (event.error !== undefined && decidedKinds.has(event.error.type)) continue;
        const key = toolKey(event.tool, event.args);
        const list = this.#tools.get(key) ?? [];
        list.push(event);
        this.#tools.set(key, list);
      } else if (event.event === 'run_start' && event.resumed !== undefined) {
        this.#decisions.push([]);
      } else if (event.event === 'approval_resolved') {
        this.#decisions.at(-1)?.push(decisionOf(event));
      }
    }
  }

  /**
   * The decisions the run went on with after its `pause`-th pause (from 0), as people gave them;
   * undefined when the recording stops there (it was never resumed).
   */
  decisionsAfter(pause: number): readonly ApprovalDecision[] | undefined {
    return this.#decisions[pause];
  }

  /** The model `agent` called first in the recording, as its `llm_start` names it. */
  modelOf(agent: string): { readonly provider: string; readonly model: string } | undefined {
    const first = this.#calls.get(agent)?.[0]?.start;
    return first === undefined ? undefined : { provider: first.provider, model: first.model };
  }

  /**
   * The next recorded model call of `agent`, if any: of the recorded turn the calling turn is
   * (`request.agentSpanId`, see {@link TurnMatch}), or that `request` goes on (the same first user
   * message, as many answers given) when it has several, else the next in order.
   */
  nextCall(
    agent: string,
    request?: Pick<ModelRequest, 'messages' | 'agentSpanId'>,
  ): RecordedCall | undefined {
    const turn = this.turns.recordedTurn(request?.agentSpanId);
    return this.#turns.take(agent, this.#calls.get(agent), request, turn);
  }

  /**
   * True when a call of `tool` ran an agent in the recording (an agent used as a tool, a tool
   * whose code calls another agent): a rerun runs such a tool's code, so the agent inside runs
   * again, its model answered from the recording, instead of answering with the tool's result.
   */
  runsAgent(tool: string): boolean {
    return this.#agentTools.has(tool);
  }

  /** The next recorded result of `tool` called with `args`, if any. */
  nextToolResult(tool: string, args: unknown): TraceEventOf<'tool_end'> | undefined {
    return this.#tools.get(toolKey(tool, args))?.shift();
  }

  /**
   * Answers a call of `tool` with `args` as the recording did: its next recorded result, or its
   * recorded failure thrown again (see {@link recordedToolFailure}), at the time it arrived on the
   * rerun's clock, so calls made in parallel get their results in the order they got them (what
   * decides on that order, a breaker or the first to fail, decides as it did); `missing` answers
   * when the recording has no such call.
   */
  answerTool<Missing>(tool: string, args: unknown, missing: () => Missing): Promise<unknown> {
    // Not async itself: an answer that need not wait is one promise, not a chain of them.
    const recorded = this.nextToolResult(tool, args);
    if (recorded === undefined) return this.#beyond(missing);
    const waiting = this.inTime(recorded);
    return (waiting ?? Promise.resolve()).then(() => this.#answer(recorded));
  }

  /**
   * Moves the rerun's clock to the time a recorded answer came (its `end` event): an answer that
   * ran at the same time as another waits for it on the clock, so the two arrive in the order they
   * came, at one time in the order the run made them (the promise to wait for); one that ran alone
   * is given at once (undefined).
   */
  inTime(end: TraceEvent): Promise<void> | undefined {
    const at = Date.parse(end.time);
    if (this.#concurrent.has(end.span_id)) return this.clock.until(at, this.stop.handOrder(end));
    this.clock.advanceTo(at);
    return undefined;
  }

  /** No recorded answer is left for a call: a run stopped from outside stops here, else `missing`. */
  async #beyond<Missing>(missing: () => Missing): Promise<Missing> {
    const stopped = this.stop.beyond();
    if (stopped !== undefined) throw await stopped;
    return missing();
  }

  #answer(recorded: TraceEventOf<'tool_end'>): unknown {
    const cut = this.stop.cut(recorded);
    if (cut !== undefined) return cut.then(error => Promise.reject(error));
    if (recorded.error !== undefined) throw recordedToolFailure(recorded.tool, recorded.error);
    return recorded.result;
  }

  /**
   * Answers a call of `tool` with `args` as the recording did (see {@link Recording.answerTool});
   * a call the recording does not have fails, saying how to run the real tool instead.
   */
  replayTool(tool: string, args: unknown): Promise<unknown> {
    return this.answerTool(tool, args, () => noResult(tool));
  }

  /** What the recording names `agent`'s model, to stand in for it: its provider and model id. */
  identityOf(agent: string): { readonly provider: string; readonly modelId: string } {
    const recorded = this.modelOf(agent);
    return { provider: recorded?.provider ?? 'recording', modelId: recorded?.model ?? agent };
  }
}

/** The failures a tool call can end with as a `ToolCallError` of that kind. */
const toolErrorKinds: ReadonlySet<string> = new Set(toolCallErrorKinds);

/**
 * A recorded tool failure, to throw again so the loop records and treats it as it did: a failure
 * of a kind the loop knows (a crash, an MCP `isError` answer, a timeout, a server that went away)
 * as that `ToolCallError`, message and all, so it is retried (or not) as it was and the model
 * reads the same words; any other failure (a bridged framework's error) as a plain error with the
 * message the tool gave (the loop's `Tool '…' failed: ` taken off, since the loop adds it again).
 */
function recordedToolFailure(
  tool: string,
  error: { readonly type: string; readonly message: string },
): Error {
  if (toolErrorKinds.has(error.type)) {
    return new ToolCallError({
      kind: error.type as ToolCallErrorKind,
      toolName: tool,
      message: error.message,
    });
  }
  return new Error(error.message.replace(/^Tool '[^']*' failed: /, ''));
}

/**
 * Says so when a trace of several runs is read for its first alone (no run named): a rerun or a
 * fork of it covers that run only, which a caller may not expect.
 */
function warnFirstRunOnly(events: readonly TraceEvent[], first: string): void {
  const runs = recordedRuns(events);
  if (runs.length < 2) return;
  process.emitWarning(
    `The trace holds ${runs.length} runs; only its first (${first}) is read. Name the run (runId; recordedRuns(events) lists them) to read another, or use 'agent-trace rerun', which reruns each.`,
    { code: 'AGENT_TRACE_FIRST_RUN_ONLY' },
  );
}

function noResult(tool: string): never {
  throw new Error(
    `Rerun: the recording has no result of tool '${tool}' for these arguments: today's code calls it differently (or more often) than the recorded run did. The comparison shows where; rerun with live tools (--live-tools, or liveTools: true) to run the real tool instead.`,
  );
}

function toolKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}

/** A recorded decision, as `resume` takes it again. */
function decisionOf(event: TraceEventOf<'approval_resolved'>): ApprovalDecision {
  const said = {
    callId: event.call_id,
    ...(event.by === undefined ? {} : { by: event.by }),
    ...(event.reason === undefined ? {} : { reason: event.reason }),
  };
  if (event.decision === 'approved') return { ...said, decision: 'approve' };
  if (event.decision === 'rejected') return { ...said, decision: 'reject' };
  return { ...said, decision: 'edit', args: event.args };
}

/** The ids of the runs a trace holds, in the order they start (a resumed run once). */
export function recordedRuns(events: readonly TraceEvent[]): string[] {
  const runs = new Set<string>();
  for (const event of events) if (event.event === 'run_start') runs.add(event.run);
  return [...runs];
}

/**
 * The runs of a trace that are a simulated user's replies (`run_start.conversation.role` is
 * `'user'`), each with the name its model ran as (`user-<name>`). They are what the person said:
 * a rerun of the conversation replays them into the agent's turns and never reruns them against
 * the agent.
 */
export function simulatedUserRuns(events: readonly TraceEvent[]): ReadonlyMap<string, string> {
  const users = new Map<string, string>();
  for (const event of events)
    if (event.event === 'run_start' && event.conversation?.role === 'user')
      users.set(event.run, event.agent);
  return users;
}

/** A recording's events: as given, or read from the JSONL trace file at `trace`. */
export async function recordedEvents(
  trace: readonly TraceEvent[] | string,
): Promise<readonly TraceEvent[]> {
  if (typeof trace !== 'string') return trace;
  const events: TraceEvent[] = [];
  for await (const event of readTrace(trace)) events.push(event);
  return events;
}
