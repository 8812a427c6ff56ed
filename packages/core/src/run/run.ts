import type { Agent, AnyAgent } from '../agent/agent.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { recentMessages } from '../memory/recent-messages.js';
import { redactError } from '../redaction/redact-returned.js';
import type { Chunk } from '../protocol/chunk.js';
import type { AgentOutcome, AgentStart, PausedTurn } from './agent-outcome.js';
import {
  openRunState,
  RUN_STATE_FORMAT,
  RUN_STATE_VERSION,
  sealState,
  type RunStateBody,
  type RunStateSnapshot,
} from './run-snapshot.js';
import type { ResumeOptions, RunOptions } from './run-options.js';
import type { RunResult } from './run-result.js';
import type { RunState } from './run-state.js';
import { pausedRun } from './create-run-state.js';
import { forkedFromFields, openRun } from './run-frame.js';
import { runAgent } from './run-agent.js';
import { resumedAgentStart } from './resumed-start.js';

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

/**
 * Goes on with a run paused for approval, from its `state`, with a decision for every pending
 * call: approved calls run, rejected ones are answered as refused (the model reads the reason),
 * edited ones run with the new arguments. The run keeps its id, session and trace id, and its
 * seq runs on from the pause, so a trace holding both parts validates as one run. Works in any
 * process: pass the same agent graph (the state names its agents). A state of another version,
 * or one that was changed, is refused with a `ConfigurationError`.
 *
 * A state goes on once: its use is claimed in a ledger (`resumeLedger`; by default beside the
 * run's JSONL trace, in its memory sink, or in the process) before anything runs, and a second
 * resume throws a `StateAlreadyResumedError` naming the first. `fork: true` goes on from the same
 * pause as a new run instead, without using the state up.
 *
 * @example
 * ```ts
 * const paused = await run(desk, 'Refund order 42');
 * writeFileSync('state.json', JSON.stringify(paused.state));
 * // later, anywhere:
 * const state = JSON.parse(readFileSync('state.json', 'utf8'));
 * const result = await resume(desk, state, { decisions: [{ callId: paused.interruptions[0].callId, decision: 'approve', by: 'ana' }] });
 * ```
 */
export async function resume<Output = string>(
  agent: Agent<Output>,
  state: RunStateSnapshot | string,
  options: ResumeOptions,
): Promise<RunResult<Output>> {
  const opened = await openRunState(state, options.decisions ?? [], options.stateSecret);
  return drainToResult(runLoop(agent, opened.run.input, options, false, opened)) as Promise<
    RunResult<Output>
  >;
}

async function* runLoop(
  agent: AnyAgent,
  input: string,
  options: RunOptions | ResumeOptions,
  streaming: boolean,
  resumed?: RunStateSnapshot,
): AsyncGenerator<Chunk, RunResult<unknown>, undefined> {
  assertRunArguments(agent, input, options);
  resolveAgentGraph(agent);
  // Checked before the run opens: a state refused for its agent graph is not used up.
  const [first, start] =
    resumed === undefined
      ? [agent, { input, messages: options.history ?? [], path: [agent.name] }]
      : resumedStart(agent, resumed, (options as ResumeOptions).decisions);
  const {
    state,
    span: runSpan,
    close,
  } = await openRun(
    agent.name,
    options,
    { input, ...forkedFromFields(options.forkedFrom) },
    { streaming, resumed },
  );
  let outcome: AgentOutcome | undefined;
  try {
    const running = runAgent(first, start, runSpan, state);
    for (let next = await running.next(); ; next = await running.next()) {
      if (next.done === true) {
        outcome = next.value;
        break;
      }
      yield state.chunks.number(next.value);
    }
  } finally {
    await close(outcome);
  }
  const paused =
    outcome.paused === undefined
      ? undefined
      : await sealState(pausedBody(agent, input, state, outcome.paused), options.stateSecret);
  return runResult(agent, state, outcome, paused);
}

/** The agent a resumed run goes on with, found along the state's path, and how it starts. */
function resumedStart(
  entry: AnyAgent,
  state: RunStateSnapshot,
  decisions: ResumeOptions['decisions'],
): [AnyAgent, AgentStart] {
  // The path from the entry agent to the paused one is walked (and checked) by resumedAgentStart.
  if (state.run.entryAgent !== entry.name) {
    throw new ConfigurationError({
      option: 'agent',
      message: `The run state was made by a run of agent '${state.run.entryAgent}', not '${entry.name}': resume it with the same entry agent.`,
    });
  }
  return resumedAgentStart(entry, state.turn, decisions);
}

/** What the state of a paused run holds: the run's ids and totals, and the paused turn. */
function pausedBody(
  entry: AnyAgent,
  input: string,
  state: RunState,
  turn: PausedTurn,
): RunStateBody {
  return {
    format: RUN_STATE_FORMAT,
    version: RUN_STATE_VERSION,
    run: { ...pausedRun(state), input, entryAgent: entry.name },
    turn,
  };
}

function runResult(
  agent: AnyAgent,
  state: RunState,
  outcome: AgentOutcome,
  paused: RunStateSnapshot | undefined,
): RunResult<unknown> {
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
    error: redactError(outcome.error, state.redactor),
    limit: outcome.limit,
    detail: outcome.detail,
    degradedTools: outcome.degradedTools,
    guardrails: state.guardrailFindings,
    handoffs: state.handoffs,
    traceErrors: state.tracer.sinkErrors,
    interruptions: outcome.paused?.pending ?? [],
    state: paused,
  };
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
