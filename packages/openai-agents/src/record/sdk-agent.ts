import type { PriceTable } from '@agent-trace/core/cost';
import { jsonOrText, RecordedAgent, type BridgedRunTally } from '@agent-trace/core/record';
import type { OpenSpan, RunTracer } from '@agent-trace/core/record';
import { responseCall, type ResponseSpanData } from './response-call.js';

/** A handoff an agent made: its span, open until the agent it handed to has ended. */
export interface OpenHandoff {
  readonly span: OpenSpan<'handoff_start'>;
  readonly to: string;
}

/**
 * One Agents SDK agent (an agent span) as an agent of the run. It reads its response spans, and
 * keeps what its ending needs: its last answer, the calls it asked for, its handoff.
 */
export class SdkAgent extends RecordedAgent {
  /**
   * How many of the SDK's input items were already recorded: the SDK sends the whole conversation
   * each turn, and a turn's new items (the answer, then the tool results) stand on their own.
   */
  #seen = 0;
  /** The calls of its last answer the tools have not taken yet: a function span names only the tool. */
  #pending: { callId: string; toolName: string; argumentsText: string }[] = [];
  handoff: OpenHandoff | undefined;
  /** The error its agent span ended with, if any. */
  error: { readonly message: string; readonly data?: Record<string, unknown> } | undefined;

  constructor(
    tracer: RunTracer,
    agent: string,
    parent: OpenSpan | null,
    run: {
      readonly prices: PriceTable;
      readonly runTally: BridgedRunTally;
    },
    /** The agents from the run's first to this one, through handoffs and agents used as tools. */
    readonly path: readonly string[],
  ) {
    super(tracer, agent, parent, { ...run, ...(path.length > 1 ? { start: { path } } : {}) });
  }

  /** How many handoffs and agents used as tools lead to it from the run's first agent. */
  get depth(): number {
    return this.path.length - 1;
  }

  /** A model call, read from its response span once it ended. */
  responded(data: ResponseSpanData, error: unknown): void {
    const call = responseCall(data, error, this.#seen);
    this.#seen = call.items;
    this.modelCallStarted(call);
    this.modelCallEnded(call.end);
    this.#pending = [...call.end.toolCalls];
  }

  /** The call a function span of `tool` runs: the first of the last answer's calls to it not yet taken. */
  takeCall(tool: string): { callId: string; args: unknown } {
    const index = this.#pending.findIndex(call => call.toolName === tool);
    if (index < 0) return { callId: `${tool}-${this.steps}`, args: undefined };
    const [call] = this.#pending.splice(index, 1);
    return { callId: call!.callId, args: jsonOrText(call!.argumentsText) };
  }
}
