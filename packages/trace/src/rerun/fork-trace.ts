import {
  isTraceSink,
  type AnyAgent,
  type LanguageModel,
  type ModelRequest,
  type RunOptions,
  type RunResult,
  type TraceEvent,
  type TraceSink,
} from '@agent-trace/core';
import type { ApprovalDecision } from '@agent-trace/core/approval';
import type { PlanResult } from '@agent-trace/core/workflow';
import { memorySink } from '../memory-sink.js';
import { compareTraces, type Divergence } from './compare-traces.js';
import { recordedModel } from './recorded-model.js';
import { recordedEvents, Recording } from './recording.js';
import { runTargetAsRecorded, type PlanTarget } from './rerun-target.js';
import { defined } from '@agent-trace/core/util';
import { ForkDeadline } from './fork-deadline.js';

/** Options of {@link forkTrace}. */
export interface ForkTraceOptions {
  /**
   * How many model answers of the recording (in trace order, every agent's, failed attempts not
   * counted) the fork reproduces before answers come from `model`. `0` forks at the first call.
   */
  afterStep: number;
  /** Who answers from the fork on: one model for every agent, or one per agent. */
  model: LanguageModel | ((agent: AnyAgent) => LanguageModel);
  /**
   * Run the real tools before the fork too; after it they always run, as the recording has no
   * results for what the new answers ask. @defaultValue false
   */
  liveTools?: boolean;
  /** The run to fork, for a trace that holds several. @defaultValue the trace's first run */
  runId?: string;
  /**
   * People's decisions for the calls that wait for approval in the fork, each naming its call by
   * id or by its tool's name: a pause before the fork point goes on as recorded unless a decision
   * here names its call; a pause after it needs one (without, the fork stops `interrupted`).
   */
  decisions?: readonly ApprovalDecision[];
  /** More run options for the fork (a clock, sinks for the new trace, …). */
  run?: Omit<RunOptions, 'overrides' | 'forkedFrom'>;
}

/** What a fork did. */
export interface ForkReport<Result = RunResult<unknown>> {
  readonly result: Result;
  /** The fork's trace. Its `run_start.forked_from` names the recorded run and the step. */
  readonly events: readonly TraceEvent[];
  readonly recorded: readonly TraceEvent[];
  /** True when the fork did exactly what the recording did up to and including step `afterStep`. */
  readonly reproduced: boolean;
  /** Where the fork first differs from the recording; undefined when it never does. */
  readonly firstDivergence: Divergence | undefined;
}

/**
 * Where each agent forks. The first `afterStep` answers of the trace (in trace order) are a cut
 * across the agents: each agent answers from the recording for as many calls as it has before the
 * cut, then from the new model. Per agent, so agents working in parallel fork where the trace
 * says, whatever order their calls finish in.
 */
class ForkPoint {
  readonly #left = new Map<string, number>();
  readonly #forked = new Set<string>();

  constructor(before: readonly TraceEvent[]) {
    for (const answer of before)
      this.#left.set(answer.agent, (this.#left.get(answer.agent) ?? 0) + 1);
  }

  /** True while `agent` still has recorded answers before the cut. */
  recorded(agent: string): boolean {
    return (this.#left.get(agent) ?? 0) > 0;
  }

  /** A recorded answer of `agent` was given. */
  took(agent: string): void {
    this.#left.set(agent, (this.#left.get(agent) ?? 0) - 1);
  }

  /** `agent` called its new model: from now on its tools run for real. */
  fork(agent: string): void {
    this.#forked.add(agent);
  }

  forked(agent: string): boolean {
    return this.#forked.has(agent);
  }
}

/**
 * Time travel: rebuilds a recorded run up to a step and goes on from there with other answers. The
 * run is re-executed with today's agent code. Its first `afterStep` model answers come from the
 * recording, and its tools answer from it until then, so the state at that step is rebuilt
 * exactly; from the next model call on, `model` answers (a FakeLLM with other answers, or a live
 * model) and tools run for real. It answers "what if the model had answered differently at step
 * K + 1". The new run records where it forked from. The report says whether steps 1…K were
 * reproduced and where the fork first differs.
 *
 * A planned run forks the same way (pass `{ planner, tools, agents }`): the planner's answers count
 * as steps like any agent's, so a fork can give the planner another answer (another plan) or an
 * agent step's agent another answer, after the plans and steps before it are rebuilt.
 *
 * @param trace - the recorded events, or the path of a JSONL trace (its first run is forked)
 * @param agent - the entry agent of the graph, or a planned run's planner and catalog, as the code
 *   defines them today
 */
export async function forkTrace(
  trace: readonly TraceEvent[] | string,
  agent: AnyAgent,
  options: ForkTraceOptions,
): Promise<ForkReport>;
export async function forkTrace(
  trace: readonly TraceEvent[] | string,
  plan: PlanTarget,
  options: ForkTraceOptions,
): Promise<ForkReport<PlanResult>>;
export async function forkTrace(
  trace: readonly TraceEvent[] | string,
  target: AnyAgent | PlanTarget,
  options: ForkTraceOptions,
): Promise<ForkReport<RunResult<unknown> | PlanResult>>;
export async function forkTrace(
  trace: readonly TraceEvent[] | string,
  agent: AnyAgent | PlanTarget,
  options: ForkTraceOptions,
): Promise<ForkReport<RunResult<unknown> | PlanResult>> {
  const all = await recordedEvents(trace);
  const recording = new Recording(all, options.runId);
  const recorded = recording.events;
  const answers = recorded.filter(event => event.event === 'llm_end' && event.error === undefined);
  if (
    !Number.isInteger(options.afterStep) ||
    options.afterStep < 0 ||
    options.afterStep > answers.length
  )
    throw new RangeError(
      `forkTrace: afterStep must be a whole number from 0 to ${answers.length} (the recorded run has ${answers.length} model answers); it is ${String(options.afterStep)}.`,
    );
  const point = new ForkPoint(answers.slice(0, options.afterStep));
  if (options.liveTools === true) recording.clock.limitsInRealTime();
  const sink = memorySink();
  const extra = options.run?.trace;
  const sinks: TraceSink[] = [
    sink,
    ...(extra === undefined ? [] : isTraceSink(extra) ? [extra] : extra),
  ];
  const forkSeq = answers[options.afterStep - 1]?.seq;
  // The run's deadline is the recording's before the fork point, and real after it.
  const { timeoutMs, signal: own, ...run } = options.run ?? {};
  const deadline = new ForkDeadline(timeoutMs, recording.clock, recording.startMs);
  const signals = [own, deadline.signal].filter(signal => signal !== undefined);
  const live = (): void => {
    recording.clock.goLive();
    deadline.live();
  };
  // An agent or a planned run: a workflow is not taken here, so no workflow result comes back.
  const result = (await runTargetAsRecorded(
    agent,
    recording,
    {
      // Recorded waits before the fork point take no real time; past it the clock runs for real.
      clock: recording.clock,
      ...run,
      ...(signals.length === 0 ? {} : { signal: AbortSignal.any(signals) }),
      trace: sinks,
      forkedFrom: {
        run: recording.runId,
        afterStep: options.afterStep,
        ...defined('seq', forkSeq),
      },
      overrides: {
        model: forkedModels(recording, point, options.model, live),
        ...(options.liveTools === true ? {} : { tool: recordedTools(recording, point) }),
      },
    },
    options.decisions,
  ).finally(() => deadline.clear())) as RunResult<unknown> | PlanResult;
  const differences = compareTraces(recorded, sink.events);
  const firstDivergence = differences[0];
  const answeredInFork = sink.events.filter(
    event => event.event === 'llm_end' && event.error === undefined,
  );
  const limit = answeredInFork[options.afterStep - 1]?.seq ?? -1;
  return {
    result,
    events: sink.events,
    recorded,
    reproduced:
      answeredInFork.length >= options.afterStep &&
      (firstDivergence === undefined || firstDivergence.seq > limit),
    firstDivergence,
  };
}

/**
 * Each agent's model for its next call: the recording's while the agent has answers left before
 * the cut, then the new model (the loop asks for the model at every call).
 */
function forkedModels(
  recording: Recording,
  point: ForkPoint,
  after: ForkTraceOptions['model'],
  /** The fork goes live: time, and the run's deadline, run for real from now on. */
  live: () => void,
): NonNullable<RunOptions['overrides']>['model'] {
  const recorded = new Map<string, LanguageModel>();
  const next = new Map<string, LanguageModel>();
  return (owner, own) => {
    const name = owner.name;
    if (!point.recorded(name)) {
      point.fork(name);
      live();
      let model = next.get(name);
      if (model === undefined) {
        model = typeof after === 'function' ? after(owner) : after;
        next.set(name, model);
      }
      return model;
    }
    const key = `${name}\u0000${own.modelId}`;
    let model = recorded.get(key);
    if (model === undefined) {
      model = counting(recordedModel(name, recording, own), () => point.took(name));
      recorded.set(key, model);
    }
    return model;
  };
}

/** `model`, telling `took` after each answer it gives. */
function counting(model: LanguageModel, took: () => void): LanguageModel {
  return {
    ...model,
    generate: async (request: ModelRequest) => {
      const answer = await model.generate(request);
      took();
      return answer;
    },
    stream: (request: ModelRequest) => countedStream(model.stream(request), took),
  };
}

async function* countedStream<T>(parts: AsyncIterable<T>, took: () => void): AsyncGenerator<T> {
  for await (const part of parts) yield part;
  took();
}

/** Tools answer from the recording before the fork point, and run for real after it. */
function recordedTools(
  recording: Recording,
  point: ForkPoint,
): NonNullable<RunOptions['overrides']>['tool'] {
  return ({ agentName, toolName, modelArgs }, execute) =>
    point.forked(agentName) ? execute() : recording.answerTool(toolName, modelArgs, execute);
}
