import type { StopReason } from '@agent-trace/core';
import type { PriceTable } from '@agent-trace/core/cost';
import {
  sealRun,
  type OpenSpan,
  type RunTracer,
  type BridgedRunTally,
} from '@agent-trace/core/record';
import { GraphAgent } from './graph-agent.js';

/** A graph's run as it started: the run of its own, or the tool call it runs inside. */
export type ScopeStart =
  | { readonly kind: 'run'; readonly runSpan: OpenSpan<'run_start'> }
  | {
      readonly kind: 'tool';
      readonly caller: GraphAgent;
      readonly tool: OpenSpan<'tool_start'>;
      readonly callId: string;
    };

/**
 * One invocation of a graph: the run's own, or one called from a tool (an agent used as a tool).
 * Its agents are the nodes that call a model, side by side under the run (or under a handoff that
 * returns to the calling tool); they end when the graph ends, and the run's own graph seals it.
 */
export class GraphScope {
  readonly #agents = new Map<string, GraphAgent>();
  #handoff: OpenSpan<'handoff_start'> | undefined;

  constructor(
    readonly tracer: RunTracer,
    readonly name: string,
    private readonly start: ScopeStart,
    private readonly run: {
      readonly prices: PriceTable;
      readonly runTally: BridgedRunTally;
    },
  ) {}

  /** Whether this is the run's own graph, which seals the run. */
  get isRun(): boolean {
    return this.start.kind === 'run';
  }

  /** The tokens of every agent of the run. */
  get runTally(): BridgedRunTally {
    return this.run.runTally;
  }

  /** The agent named `name`, started on its first model call. */
  agent(name: string): GraphAgent {
    const known = this.#agents.get(name);
    if (known !== undefined) return known;
    const agent = new GraphAgent(this.tracer, name, this.#parentOf(name), {
      prices: this.run.prices,
      runTally: this.run.runTally,
      ...(this.start.kind === 'tool' ? { start: { path: [this.start.caller.agent, name] } } : {}),
    });
    this.#agents.set(name, agent);
    return agent;
  }

  /** The agent whose answer asked for the call `callId`, or the last one to answer. */
  agentOfCall(callId: string | undefined): GraphAgent | undefined {
    const agents = [...this.#agents.values()];
    return agents.find(agent => callId !== undefined && agent.pending.has(callId)) ?? agents.at(-1);
  }

  /** The graph ends: its agents, then the handoff back to the calling tool, or the run's seal. */
  ended(stopReason: StopReason, output: string | undefined, error?: unknown): void {
    const agents = [...this.#agents.values()];
    const answer = output ?? agents.at(-1)?.lastText ?? '';
    for (const agent of agents.reverse())
      agent.ended({
        stopReason,
        output: agent.lastText,
        ...(error === undefined ? {} : { error }),
      });
    if (this.start.kind === 'run')
      sealRun(this.tracer, this.start.runSpan, {
        stopReason,
        output: answer,
        tally: this.run.runTally,
        ...(error === undefined ? {} : { error }),
      });
    else if (this.#handoff !== undefined)
      this.tracer.end(
        this.#handoff,
        this.#handoffFields(this.start.caller, [...this.#agents.keys()][0] ?? this.name),
      );
  }

  #parentOf(name: string): OpenSpan {
    if (this.start.kind === 'run') return this.start.runSpan;
    const { caller, tool, callId } = this.start;
    this.#handoff ??= this.tracer.start('handoff_start', caller.agent, tool, {
      ...this.#handoffFields(caller, name),
      call_id: callId,
    });
    return this.#handoff;
  }

  #handoffFields(
    caller: GraphAgent,
    to: string,
  ): { from: string; to: string; depth: number; mode: 'return_to_caller'; path: string[] } {
    return { from: caller.agent, to, depth: 1, mode: 'return_to_caller', path: [caller.agent, to] };
  }
}
