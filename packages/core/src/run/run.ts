import type { Agent, AnyAgent } from '../agent/agent.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { recentMessages } from '../memory/recent-messages.js';
import { Redactor } from '../redaction/redactor.js';
import { RunTimeoutError } from '../errors/run-timeout-error.js';
import { zeroUsage } from '../protocol/usage.js';
import { RunTracer, type TraceEventFields } from '../trace/run-tracer.js';
import { isTraceSink, type SinkHealth, type TraceSink } from '../trace/trace-sink.js';
import { systemClock } from '../util/clock.js';
import { randomIds } from '../util/ids.js';
import type { Chunk } from '../protocol/chunk.js';
import { ChunkSequence } from './chunk-sequence.js';
import type { AgentOutcome } from './agent-outcome.js';
import { runAgent } from './run-agent.js';
import type { RunState } from './run-state.js';
import { toTraceError } from './to-trace-error.js';
import type { RunOptions } from './run-options.js';
import type { RunResult } from './run-result.js';

/** The stream of a run: iterate it for chunks; `result` resolves when the run has ended. */
export interface RunStream<Output = string> extends AsyncIterable<Chunk> {
  /**
   * The run's result, once its trace is flushed. Awaiting it without iterating runs the stream to
   * the end and drops the chunks.
   */
  readonly result: Promise<RunResult<Output>>;
}

/**
 * Runs an agent to the end and returns its result. Never throws for what happens during the run:
 * limits, model failures and aborts end it with a `stopReason` (and `error`). Throws a
 * `ConfigurationError` for a bad argument before anything runs.
 *
 * @example
 * ```ts
 * const result = await run(triage, 'I was charged twice', { trace: jsonlSink('traces/run.jsonl') });
 * result.output; result.stopReason; result.usage; result.steps;
 * ```
 */
export function run<Output = string>(
  agent: Agent<Output>,
  input: string,
  options: RunOptions = {},
): Promise<RunResult<Output>> {
  return drainToResult(runLoop(agent, input, options, false)) as Promise<RunResult<Output>>;
}

/**
 * Runs an agent, streaming its chunks (`delta`, `tool_call`, `tool_response`, `usage`, `error`) as
 * they happen. The model is called in streaming mode; the trace and the result are the same as
 * {@link run}'s. Stopping the iteration early aborts the run: it ends with `aborted` and its trace
 * is still complete and sealed.
 *
 * @example
 * ```ts
 * const s = stream(triage, 'hi', { trace: memorySink() });
 * for await (const chunk of s) if (chunk.type === 'delta') process.stdout.write(chunk.data.text);
 * const result = await s.result;
 * ```
 */
export function stream<Output = string>(
  agent: Agent<Output>,
  input: string,
  options: RunOptions = {},
): RunStream<Output> {
  const stopper = new AbortController();
  const signal =
    options.signal === undefined
      ? stopper.signal
      : AbortSignal.any([options.signal, stopper.signal]);
  const loop = runLoop(agent, input, { ...options, signal }, true);
  let started = false;
  let settle!: { resolve: (result: RunResult<Output>) => void; reject: (error: unknown) => void };
  const result = new Promise<RunResult<Output>>(
    (resolve, reject) => (settle = { resolve, reject }),
  );
  result.catch(() => undefined);
  async function* iterate(): AsyncGenerator<Chunk, void, undefined> {
    let finished = false;
    try {
      for (;;) {
        const next = await loop.next();
        if (next.done === true) {
          finished = true;
          settle.resolve(next.value as RunResult<Output>);
          return;
        }
        yield next.value;
      }
    } catch (error) {
      finished = true;
      settle.reject(error);
      throw error;
    } finally {
      if (!finished) {
        // The consumer stopped reading: abort the run and let it close its spans and seal the trace.
        stopper.abort('the stream consumer stopped reading');
        await drainToResult(loop).then(
          value => settle.resolve(value as RunResult<Output>),
          settle.reject,
        );
      }
    }
  }
  const claim = (): AsyncGenerator<Chunk, void, undefined> => {
    if (started) {
      throw new ConfigurationError({
        option: 'stream',
        message:
          'This run stream is already being read: a stream can be iterated once. Call stream() again for a new run.',
      });
    }
    started = true;
    return iterate();
  };
  return {
    [Symbol.asyncIterator]: claim,
    get result(): Promise<RunResult<Output>> {
      if (!started) {
        started = true;
        void drainToResult(loop).then(
          value => settle.resolve(value as RunResult<Output>),
          settle.reject,
        );
      }
      return result;
    },
  };
}

async function drainToResult(
  loop: AsyncGenerator<Chunk, RunResult<unknown>, undefined>,
): Promise<RunResult<unknown>> {
  for (;;) {
    const next = await loop.next();
    if (next.done === true) return next.value;
  }
}

async function* runLoop(
  agent: AnyAgent,
  input: string,
  options: RunOptions,
  streaming: boolean,
): AsyncGenerator<Chunk, RunResult<unknown>, undefined> {
  assertRunArguments(agent, input, options);
  resolveAgentGraph(agent);
  const deadline = runDeadline(options);
  const state = createRunState(options, deadline.signal, streaming);
  const { tracer } = state;
  const runSpan = tracer.start('run_start', agent.name, null, { input });
  let outcome: AgentOutcome | undefined;
  try {
    const running = runAgent(
      agent,
      { input, messages: options.history ?? [], path: [agent.name] },
      runSpan,
      state,
    );
    for (let next = await running.next(); ; next = await running.next()) {
      if (next.done === true) {
        outcome = next.value;
        break;
      }
      yield state.chunks.number(next.value);
    }
  } finally {
    tracer.end(runSpan, runEndFields(state, outcome, await tracer.sinkHealth()));
    deadline.clear();
    await tracer.flush();
  }
  return runResult(agent, state, outcome);
}

/** The run's `timeoutMs` as an abort signal, combined with the caller's `signal`. */
function runDeadline(options: RunOptions): { signal: AbortSignal | undefined; clear(): void } {
  const { timeoutMs } = options;
  if (timeoutMs === undefined) return { signal: options.signal, clear: () => undefined };
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new RunTimeoutError({ timeoutMs })), timeoutMs);
  return {
    signal:
      options.signal === undefined ? timer.signal : AbortSignal.any([options.signal, timer.signal]),
    clear: () => clearTimeout(timeout),
  };
}

/** What the agents and phases of one run share. */
function createRunState(
  options: RunOptions,
  signal: AbortSignal | undefined,
  streaming: boolean,
): RunState {
  const { clock = systemClock, ids = randomIds } = options;
  const runId = ids.runId();
  const redactor = options.redaction === false ? undefined : new Redactor(options.redaction);
  const tracer = new RunTracer({
    redactor,
    sinks: toSinks(options.trace),
    runId,
    session: options.session ?? runId,
    clock,
    ids,
  });
  return {
    tracer,
    chunks: new ChunkSequence(clock, tracer.session, redactor, streaming),
    redactor,
    signal,
    streaming,
    clock,
    random: options.random ?? Math.random,
    steps: [],
    toolCalls: [],
    guardrailFindings: [],
    overrides: options.overrides ?? {},
    handoffs: [],
    describedAgents: new Set(),
    runBreakers: new WeakMap(),
    runAgent,
    totals: { usage: zeroUsage },
  };
}

/** The seal of the run: how it ended, its counts and totals, and the health of its export. */
function runEndFields(
  state: RunState,
  outcome: AgentOutcome | undefined,
  health: SinkHealth | undefined,
): Omit<TraceEventFields<'run_end'>, 'duration_ms'> {
  const { tracer } = state;
  return {
    stop_reason: outcome?.stopReason ?? 'aborted',
    last_seq: tracer.nextSeq,
    counts: { events: tracer.nextSeq + 1, ...tracer.counts },
    tok_prompt: state.totals.usage.promptTokens,
    tok_completion: state.totals.usage.completionTokens,
    output: outcome?.output ?? '',
    ...(outcome?.error === undefined ? {} : { error: toTraceError(outcome.error) }),
    ...(outcome?.limit === undefined ? {} : { limit: outcome.limit }),
    ...(outcome?.detail === undefined ? {} : { detail: outcome.detail }),
    ...(tracer.redactions === 0 ? {} : { redactions: tracer.redactions }),
    ...(health === undefined
      ? {}
      : {
          export: {
            dropped_spans: health.dropped,
            failed_spans: health.failed,
            ...(health.pending === undefined || health.pending === 0
              ? {}
              : { pending_spans: health.pending }),
          },
        }),
    ...(outcome === undefined || outcome.degradedTools.length === 0
      ? {}
      : { degraded_tools: [...outcome.degradedTools] }),
  };
}

function runResult(agent: AnyAgent, state: RunState, outcome: AgentOutcome): RunResult<unknown> {
  return {
    output: outcome.decoded === undefined ? outcome.output : outcome.decoded.value,
    text: outcome.output,
    stopReason: outcome.stopReason,
    messages:
      agent.memory.maxItems === undefined
        ? outcome.conversation.messages
        : recentMessages(outcome.conversation.messages, agent.memory.maxItems),
    steps: state.steps,
    toolCalls: state.toolCalls,
    usage: state.totals.usage,
    runId: state.tracer.runId,
    agent: outcome.agentName,
    error: outcome.error,
    limit: outcome.limit,
    detail: outcome.detail,
    degradedTools: outcome.degradedTools,
    guardrails: state.guardrailFindings,
    handoffs: state.handoffs,
    traceErrors: state.tracer.sinkErrors,
  };
}

function toSinks(trace: RunOptions['trace']): readonly TraceSink[] {
  if (trace === undefined) return [];
  const sinks = isTraceSink(trace) ? [trace] : trace;
  if (!Array.isArray(sinks) || !sinks.every(isTraceSink)) {
    throw new ConfigurationError({
      option: 'trace',
      message:
        "Invalid 'trace' option: expected a trace sink or an array of sinks, such as jsonlSink('traces/run.jsonl') or memorySink().",
    });
  }
  return sinks;
}

/** Resolves every handoff reachable from `entry`, so a misconfigured one fails before the run starts. */
function resolveAgentGraph(entry: AnyAgent): void {
  const seen = new Set<AnyAgent>([entry]);
  const pending = [entry];
  for (let agent = pending.pop(); agent !== undefined; agent = pending.pop()) {
    for (const { agent: target } of agent.handoffs()) {
      if (seen.has(target)) continue;
      seen.add(target);
      pending.push(target);
    }
  }
}

function assertRunArguments(agent: AnyAgent, input: string, options: RunOptions): void {
  if (typeof agent !== 'object' || agent === null || !('toolRegistry' in agent)) {
    throw new ConfigurationError({
      option: 'agent',
      message: 'run() needs an agent made with agent({ name, model, ... }) as its first argument.',
    });
  }
  if (typeof input !== 'string') {
    throw new ConfigurationError({
      option: 'input',
      message: `run() needs the user's input as a string (actual: ${typeof input}).`,
    });
  }
  if (
    options.timeoutMs !== undefined &&
    !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)
  ) {
    throw new ConfigurationError({
      option: 'timeoutMs',
      message: `Invalid timeoutMs: expected a number of milliseconds greater than 0 (actual: ${String(options.timeoutMs)}).`,
    });
  }
  if (typeof options !== 'object' || options === null) {
    throw new ConfigurationError({
      option: 'options',
      message: 'run() options must be an object, e.g. { trace: memorySink() }.',
    });
  }
}
