import type { StopReason } from '@agent-trace/core';
import {
  jsonOrText,
  type OpenSpan,
  type RunTracer,
  bridgedRunTally,
  type BridgedRuns,
} from '@agent-trace/core/record';
import { conversationOf } from '../to-model-request.js';
import type { ResponseSpanData } from './response-call.js';
import { SdkAgent } from './sdk-agent.js';

/** A span as a tracing processor is given it, read by the fields the recorder needs. */
export interface SdkSpan {
  readonly spanId: string;
  readonly parentId: string | null;
  readonly spanData: { readonly type: string } & Record<string, unknown>;
  readonly error: SdkSpanError | null;
}

/** The SDK's span error. */
export interface SdkSpanError {
  readonly message: string;
  readonly data?: Record<string, unknown>;
}

/** A task span (a `run` call): its agents in order, and the agent-as-tool call it runs in, if any. */
interface Task {
  readonly agents: SdkAgent[];
  /** Set once its agents have ended. */
  ended?: true;
  readonly caller?: {
    readonly agent: SdkAgent;
    readonly tool: OpenSpan<'tool_start'>;
    readonly callId: string;
    handoff?: OpenSpan<'handoff_start'>;
  };
}

/** What the recorder knows of a span: its parent, and what it stands for. */
interface Known {
  readonly parentId: string | null;
  readonly task?: Task;
  readonly agent?: SdkAgent;
  readonly tool?: { readonly agent: SdkAgent; readonly callId: string };
}

/**
 * One Agents SDK trace as one agent-trace run. The SDK's spans run task → agent → turn → response
 * and function spans; an agent that hands off ends, and the next agent starts beside it. The run
 * nests them as agent-trace's own loop does: the agent handed to hangs under the handoff, which
 * stays open with the agent that made it until the task ends; an agent used as a tool hangs under
 * that tool call. The run starts at its first event, a model call's first user message its input.
 */
export class RecordedTrace {
  readonly #spans = new Map<string, Known>();
  #root: SdkAgent | undefined;
  readonly #runTally = bridgedRunTally();
  /**
   * A run stopped before anything showed its input (an input guardrail blocked it before any
   * model call): how its first task ended, kept until {@link RecordedTrace.endBlocked} is told
   * the input. Only when the recorder can learn it (`withAgentTrace`, from the SDK's error).
   */
  #blocked: { readonly task: Task; readonly error: SdkSpanError | undefined } | undefined;

  constructor(
    readonly tracer: RunTracer,
    /** The recorder's runs: their prices, and how a run's span starts. */
    private readonly runs: BridgedRuns,
    private readonly waitForInput = false,
  ) {}

  /** True when the run waits for its input to be told before it can end. */
  get awaitsInput(): boolean {
    return this.#blocked !== undefined;
  }

  /** Ends a run that {@link awaitsInput}, with its input (empty when it never became known). */
  endBlocked(input: string): void {
    const blocked = this.#blocked;
    if (blocked === undefined || this.#root === undefined) return;
    this.#blocked = undefined;
    this.#ensureRun(this.#root, input);
    this.#taskEnded(blocked.task, blocked.error);
    this.traceEnded();
  }

  /** A span starts: a task, an agent, or a tool call (whose arguments the model's answer gave). */
  spanStarted(span: SdkSpan): void {
    const { type, name } = span.spanData as { type: string; name?: unknown };
    const known: Known = { parentId: span.parentId };
    if (type === 'task') {
      const caller = this.#nearest(span.parentId, each => each.tool !== undefined)?.tool;
      const tool = caller?.agent.toolSpan(caller.callId);
      this.#spans.set(span.spanId, {
        ...known,
        task: {
          agents: [],
          ...(caller === undefined || tool === undefined
            ? {}
            : { caller: { agent: caller.agent, tool, callId: caller.callId } }),
        },
      });
    } else if (type === 'agent') {
      const agent = this.#agentStarted(span.parentId, String(name));
      this.#spans.set(span.spanId, agent === undefined ? known : { ...known, agent });
    } else if (type === 'function') {
      const agent = this.#agentOf(span.parentId);
      if (agent === undefined) return void this.#spans.set(span.spanId, known);
      this.#ensureRun(agent, '');
      const { callId, args } = agent.takeCall(String(name));
      agent.toolStarted(callId, String(name), args);
      this.#spans.set(span.spanId, { ...known, tool: { agent, callId } });
    } else this.#spans.set(span.spanId, known);
  }

  /** A span ends: a model call is recorded whole, a tool call or a task ends. */
  spanEnded(span: SdkSpan): void {
    const data = span.spanData;
    const known = this.#spans.get(span.spanId);
    const error = span.error === null ? undefined : spanError(span.error);
    if (data.type === 'response') {
      const agent = this.#agentOf(span.parentId);
      if (agent === undefined) return;
      const response = data as unknown as ResponseSpanData;
      if (agent.runSpan === undefined) this.#ensureRun(agent, firstUserText(response._input));
      agent.responded(response, error);
    } else if (data.type === 'function' && known?.tool !== undefined) {
      const { agent, callId } = known.tool;
      agent.toolEnded(
        callId,
        error === undefined
          ? { output: jsonOrText(typeof data.output === 'string' ? data.output : '') }
          : { error },
      );
    } else if (data.type === 'handoff') {
      this.#handedOff(span.parentId, typeof data.to_agent === 'string' ? data.to_agent : '');
    } else if (data.type === 'agent' && known?.agent !== undefined) {
      known.agent.error = span.error ?? undefined;
    } else if (data.type === 'task' && known?.task !== undefined) {
      this.#taskEnded(known.task, span.error ?? undefined);
    }
  }

  /** The SDK trace ends: the tasks that never ended end with it, the innermost first. */
  traceEnded(): void {
    if (this.#blocked !== undefined) return;
    for (const { task } of [...this.#spans.values()].reverse())
      if (task !== undefined && task.ended !== true)
        this.#taskEnded(task, { message: 'the trace ended before its run did' });
  }

  #agentStarted(parentId: string | null, name: string): SdkAgent | undefined {
    const task = this.#nearest(parentId, each => each.task !== undefined)?.task;
    if (task === undefined) return undefined;
    const previous = task.agents.at(-1);
    const from = previous ?? task.caller?.agent;
    let parent: OpenSpan | null = previous?.handoff?.span ?? null;
    if (previous === undefined && task.caller !== undefined) {
      // An agent used as a tool: a handoff that returns to its caller, under the tool call.
      const { agent: caller, tool, callId } = task.caller;
      task.caller.handoff = this.tracer.start('handoff_start', caller.agent, tool, {
        ...handoffFields(caller, name, 'return_to_caller'),
        call_id: callId,
      });
      parent = task.caller.handoff;
    }
    const agent = new SdkAgent(
      this.tracer,
      name,
      parent,
      { prices: this.runs.prices, runTally: this.#runTally },
      [...(from?.path ?? []), name],
    );
    this.#root ??= agent;
    task.agents.push(agent);
    return agent;
  }

  /** The run starts before its first agent's first event, with the input known by then. */
  #ensureRun(agent: SdkAgent, input: string): void {
    if (agent !== this.#root || agent.runSpan !== undefined) return;
    agent.sealsRun(this.runs.startRun(this.tracer, agent.agent, input));
  }

  /** A handoff span ended: the agent's handoff opens, and the next agent of its task hangs under it. */
  #handedOff(parentId: string | null, to: string): void {
    const agent = this.#agentOf(parentId);
    if (agent === undefined) return;
    this.#ensureRun(agent, '');
    const call = agent.takeCall(`transfer_to_${to}`);
    agent.handedOff();
    agent.handoff = {
      to,
      span: this.tracer.start(
        'handoff_start',
        agent.agent,
        agent.startAgent({ provider: '', model: '' }, '', []),
        { ...handoffFields(agent, to, 'pass_control'), call_id: call.callId },
      ),
    };
  }

  /**
   * A task ends: its last agent with the task's stop and output, then each agent that handed off,
   * innermost first, after its handoff; then the handoff that returns to an agent-as-tool's caller.
   */
  #taskEnded(task: Task, error: SdkSpanError | undefined): void {
    task.ended = true;
    if (
      this.waitForInput &&
      task.caller === undefined &&
      this.#root !== undefined &&
      this.#root.runSpan === undefined
    ) {
      this.#blocked = { task, error };
      return;
    }
    const last = task.agents.at(-1);
    const failure = error ?? last?.error;
    const stopReason = stopReasonOf(failure);
    // A guardrail that tripped withheld the answer: the run has no output (as a run of the loop).
    const output = stopReason === 'guardrail_blocked' ? '' : (last?.lastText ?? '');
    const cause = failure === undefined ? undefined : spanError(failure);
    for (const agent of [...task.agents].reverse()) {
      this.#ensureRun(agent, '');
      const handoff = agent.handoff;
      if (handoff !== undefined)
        this.tracer.end(handoff.span, handoffFields(agent, handoff.to, 'pass_control'));
      agent.ended({
        stopReason,
        output,
        ...(cause === undefined ? {} : { error: cause }),
        ...(handoff === undefined || agent === last ? {} : { handedOffTo: handoff.to }),
      });
    }
    const caller = task.caller;
    if (caller?.handoff !== undefined)
      this.tracer.end(
        caller.handoff,
        handoffFields(caller.agent, task.agents[0]?.agent ?? '', 'return_to_caller'),
      );
  }

  /** The agent a span belongs to: its nearest agent span. */
  #agentOf(spanId: string | null): SdkAgent | undefined {
    return this.#nearest(spanId, each => each.agent !== undefined)?.agent;
  }

  #nearest(spanId: string | null, wanted: (known: Known) => boolean): Known | undefined {
    for (let id = spanId; id !== null;) {
      const known = this.#spans.get(id);
      if (known === undefined) return undefined;
      if (wanted(known)) return known;
      id = known.parentId;
    }
    return undefined;
  }
}

/** A handoff's fields, at its end as at its start. */
function handoffFields(
  from: SdkAgent,
  to: string,
  mode: 'pass_control' | 'return_to_caller',
): { from: string; to: string; depth: number; mode: typeof mode; path: string[] } {
  return { from: from.agent, to, depth: from.depth + 1, mode, path: [...from.path, to] };
}

/** The SDK's error (its class name leads the detail the runner keeps) as a stop reason. */
function stopReasonOf(error: SdkSpanError | undefined): StopReason {
  if (error === undefined) return 'completed';
  const detail = error.data?.error;
  const text = `${error.message} ${typeof detail === 'string' ? detail : ''}`;
  if (/MaxTurnsExceeded|Max turns/.test(text)) return 'max_steps';
  if (/GuardrailTripwireTriggered/.test(text)) return 'guardrail_blocked';
  if (/AbortError|aborted/i.test(text)) return 'aborted';
  return 'error';
}

/** The SDK's span error as an error: the detail the runner keeps (the error's text), or its message. */
function spanError(error: SdkSpanError): Error {
  const detail = error.data?.error;
  return new Error(typeof detail === 'string' ? detail : error.message);
}

/** The run's input: the first user message of its first model call. */
function firstUserText(input: ResponseSpanData['_input']): string {
  const first = conversationOf(input ?? []).messages.find(message => message.role === 'user');
  return first?.content ?? '';
}
