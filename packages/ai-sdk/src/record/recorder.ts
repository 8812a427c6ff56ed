import { AsyncLocalStorage } from 'node:async_hooks';
import { BridgedRuns, type BridgedEnding, type OpenSpan } from '@agent-trace/core/record';
import { RecordedOperation } from './operation.js';
import type { AgentTraceTelemetryOptions } from './trace-telemetry.js';

/** What a tool's execution runs inside: the operation and the tool call, for calls it makes. */
interface ToolContext {
  readonly operation: RecordedOperation;
  readonly span: OpenSpan<'tool_start'> | undefined;
}

/** How an operation ended, as its agent's end and its run's seal record it. */
export type OperationEnding = BridgedEnding;

/** What the telemetry integration keeps: the operations under way, their runs and flushes. */
export class Recorder {
  /** By the AI SDK's call id. */
  readonly operations = new Map<string, RecordedOperation>();
  /** Tool executions, so that an operation started inside one knows it is a sub-agent. */
  readonly tools = new AsyncLocalStorage<ToolContext>();
  #running = 0;
  readonly #runs: BridgedRuns;

  constructor(private readonly options: AgentTraceTelemetryOptions) {
    this.#runs = new BridgedRuns(options);
  }

  /** An operation starts: a run of its own, or a sub-agent of the tool it was called from. */
  begin(callId: string, functionId: string | undefined, input: string): void {
    const agent = this.options.agent ?? functionId ?? 'ai-sdk';
    const caller = this.tools.getStore();
    if (caller !== undefined) {
      const { operation, span } = caller;
      this.operations.set(
        callId,
        new RecordedOperation(operation.tracer, agent, span ?? null, {
          prices: this.#runs.prices,
          runTally: operation.runTally,
        }),
      );
      return;
    }
    const tracer = this.#runs.open(agent);
    const runSpan = this.#runs.startRun(tracer, agent, input);
    this.operations.set(
      callId,
      new RecordedOperation(tracer, agent, null, { prices: this.#runs.prices, runSpan }),
    );
  }

  /** An operation ends; a run's own agent seals the run, and its sinks are flushed. */
  finish(callId: string, ending: OperationEnding): void {
    const operation = this.operations.get(callId);
    if (operation === undefined) return;
    this.operations.delete(callId);
    operation.ended(ending);
    if (operation.runSpan !== undefined) this.#runs.closed(operation.tracer);
  }

  /**
   * Runs a tool's execution inside its context, so an operation it starts is its sub-agent. The
   * context is given up when no tool runs: on Node 20 a live AsyncLocalStorage makes every promise
   * of the process pay for propagating it (a third of an AI SDK step's time, measured).
   */
  async withinTool<T>(context: ToolContext, execute: () => PromiseLike<T>): Promise<T> {
    this.#running++;
    try {
      return await this.tools.run(context, execute);
    } finally {
      if (--this.#running === 0) this.tools.disable();
    }
  }

  /** Waits until every sink has stored what the runs gave it. */
  flush(): Promise<void> {
    return this.#runs.flush();
  }
}
