import type { AnyAgent, LanguageModel, RunOptions, RunResult, TraceEvent } from '@agent-trace/core';
import {
  forkTrace,
  formatDivergence,
  isBridgedAgent,
  isPlanTarget,
  rerunTrace,
  type BridgedAgent,
  type Divergence,
  type PlanTarget,
  type RerunTarget,
} from '@agent-trace/trace';
import { mean } from '../compare/bootstrap.js';
import type { EvalCase, Score, Scorer } from '../scorer.js';
import type { RegressExpected } from './regress-scorers.js';
import type { RecordedRun } from './select-recorded.js';
import { continueConversation, type ContinuedConversation } from './conversation-continuation.js';
import type { RegressEvents } from './regress-experiments.js';

/** How a recorded run fared under today's code. */
export type RegressStatus = 'same' | 'diverged' | 'continued' | 'failed';

/** How the new run's scores compare with the recorded run's (their means). */
export type RegressVerdict = 'same' | 'improved' | 'regressed' | 'unchanged' | 'not scored';

/** One recorded run, regressed. */
export interface RegressCase {
  readonly run: string;
  readonly input: string;
  /**
   * Set for a turn of a conversation, rerun from the history it was recorded with: which
   * conversation, which turn.
   */
  readonly turn?: { readonly conversation: string; readonly turn: number };
  /**
   * `same`: today's code did what the recording did (no model call); `diverged`: it did not, and
   * was not continued; `continued`: it did not, and a live model went on from there; `failed`:
   * the rerun itself threw (`divergence` says why).
   */
  readonly status: RegressStatus;
  /** Where and why the behaviour changed, in words; undefined when `same`. */
  readonly divergence?: string;
  /** The seq of the first divergence in the new trace. */
  readonly seq?: number;
  /** The recorded run's scores, and the new run's (undefined when it was not continued). */
  readonly before: Readonly<Record<string, Score>>;
  readonly after: Readonly<Record<string, Score>> | undefined;
  readonly verdict: RegressVerdict;
  /** Model calls made live (0 unless continued), and what they cost. */
  readonly modelCalls: number;
  readonly costUsd: number;
  /**
   * For a continued turn of a conversation the recording went on after, with `userModel`: how the
   * conversation went on, a simulated user standing in for the person (its calls counted above).
   */
  readonly conversation?: ContinuedConversation;
}

/** A regressed case, with its two traces: the recorded run's and today's. */
export interface RegressedRun {
  readonly found: RegressCase;
  readonly events: RegressEvents;
}

/** What one case is given. */
export interface CaseSetup {
  readonly target: RerunTarget | BridgedAgent;
  readonly scorers: readonly Scorer[];
  /** The model that goes on from a divergence; without it a diverged case is not continued. */
  readonly continueWith: LanguageModel | ((agent: AnyAgent) => LanguageModel) | undefined;
  readonly run: Omit<RunOptions, 'overrides'> | undefined;
  /** Plays the person of a diverged conversation after its continued turn. */
  readonly userModel?: LanguageModel | undefined;
  /** Run the real tools instead of answering with the recorded results (reruns and continuations). */
  readonly liveTools?: boolean;
  /** Whether the budget allows another continuation. */
  readonly mayContinue: () => boolean;
  /** Stops a continuation under way (the regress was stopped): its case is not kept. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Reruns one recorded run; when it diverges, continues it with a live model and scores both.
 * Undefined when the regress was stopped while the continuation went on: the case did not finish.
 */
export async function regressCase(
  recordedRun: RecordedRun,
  recorded: readonly TraceEvent[],
  setup: CaseSetup,
): Promise<RegressedRun | undefined> {
  const before = await scores(setup.scorers, recordedRun, recorded, recorded);
  const made = (found: Partial<RegressCase>, today: readonly TraceEvent[]): RegressedRun => ({
    found: {
      run: recordedRun.run,
      input: recordedRun.input,
      ...(recordedRun.turn === undefined ? {} : { turn: recordedRun.turn }),
      status: 'diverged',
      before,
      after: undefined,
      verdict: 'not scored',
      modelCalls: 0,
      costUsd: 0,
      ...found,
    },
    events: { recorded, today },
  });
  const runOptions = setup.run === undefined ? {} : { run: setup.run };
  const liveTools = setup.liveTools === true;
  let report;
  try {
    const { target } = setup;
    report = isBridgedAgent(target)
      ? await target.rerun(recorded, { runId: recordedRun.run, liveTools })
      : await rerunTrace(recorded, target, { runId: recordedRun.run, liveTools, ...runOptions });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return made({ status: 'failed', divergence: `the rerun threw: ${why}` }, []);
  }
  if (report.same) return made({ status: 'same', after: before, verdict: 'same' }, report.rerun);
  const divergence = report.firstDivergence as Divergence;
  const diverged = { divergence: formatDivergence(divergence), seq: divergence.seq };
  // A model request that changed in no part the trace records is rerun's fault, not the code's.
  if (unexplained(divergence))
    return made(
      {
        status: 'failed',
        seq: divergence.seq,
        divergence: `a divergence regress cannot explain (a defect of rerun to report, not a change of the code): ${diverged.divergence}`,
      },
      report.rerun,
    );
  const continueWith = setup.continueWith;
  if (continueWith === undefined || !forkable(setup.target)) return made(diverged, report.rerun);
  if (!setup.mayContinue())
    return made(
      { ...diverged, divergence: `${diverged.divergence}\n  not continued: the budget is spent` },
      report.rerun,
    );
  const afterStep = answersBefore(recorded, divergence);
  const fork = await forkTrace(recorded, setup.target, {
    afterStep,
    model: continueWith,
    runId: recordedRun.run,
    liveTools,
    run: stoppable(setup.run, setup.signal),
  });
  if (setup.signal?.aborted === true && stopReason(fork.events) === 'aborted') return undefined;
  const after = await scores(setup.scorers, recordedRun, fork.events, recorded);
  const live = liveSpend(fork.events.filter(event => event.event === 'llm_end').slice(afterStep));
  const conversation = await wentOn(recordedRun, setup, fork.result);
  return made(
    {
      ...diverged,
      status: 'continued',
      after,
      verdict: verdictOf(before, after),
      modelCalls: live.modelCalls + (conversation?.modelCalls ?? 0),
      costUsd: live.costUsd + (conversation?.costUsd ?? 0),
      ...(conversation === undefined ? {} : { conversation }),
    },
    fork.events,
  );
}

/** The live model calls of a continuation, and what they cost. */
function liveSpend(answers: readonly TraceEvent[]): { modelCalls: number; costUsd: number } {
  const costUsd = answers.reduce(
    (sum, event) => sum + (event.event === 'llm_end' ? (event.cost_usd ?? 0) : 0),
    0,
  );
  return { modelCalls: answers.length, costUsd };
}

/** A continued turn's conversation, gone on with a simulated user (see `continueConversation`). */
async function wentOn(
  recordedRun: RecordedRun,
  setup: CaseSetup,
  result: unknown,
): Promise<ContinuedConversation | undefined> {
  const { turn } = recordedRun;
  const { target, continueWith, userModel } = setup;
  if (turn?.turns === undefined || userModel === undefined || continueWith === undefined)
    return undefined;
  if (isBridgedAgent(target) || isPlanTarget(target) || !('toolRegistry' in target))
    return undefined;
  const continued = result as RunResult<unknown>;
  if (!Array.isArray(continued.messages)) return undefined;
  const { trace: _own, ...run } = setup.run ?? {};
  return continueConversation({
    target,
    turn: { conversation: turn.conversation, turn: turn.turn, turns: turn.turns },
    continued,
    continueWith,
    userModel,
    run,
  });
}

/** The run options of a continuation, stopped by `signal` too. */
function stoppable(
  run: CaseSetup['run'],
  signal: AbortSignal | undefined,
): Omit<RunOptions, 'overrides'> | undefined {
  if (signal === undefined) return run;
  const own = run?.signal;
  return { ...run, signal: own === undefined ? signal : AbortSignal.any([own, signal]) };
}

/** How the run of a trace ended. */
function stopReason(events: readonly TraceEvent[]): string | undefined {
  const end = events.findLast(event => event.event === 'run_end');
  return end?.event === 'run_end' ? end.stop_reason : undefined;
}

/** Whether a fork can go on from a divergence of `target`: an agent or a plan (not a workflow or a bridge). */
function forkable(target: RerunTarget | BridgedAgent): target is AnyAgent | PlanTarget {
  if (isBridgedAgent(target)) return false;
  return isPlanTarget(target) || (typeof target === 'object' && 'toolRegistry' in target);
}

/** A changed model request whose parts (model, settings, instructions, tools, messages) are all the same. */
function unexplained(divergence: Divergence): boolean {
  return (
    divergence.kind === 'changed' &&
    divergence.expected?.startsWith('model call') === true &&
    divergence.actual?.startsWith('model call') === true &&
    divergence.explanation === undefined
  );
}

/** The recorded model answers before the divergence: where the fork takes over. */
function answersBefore(recorded: readonly TraceEvent[], divergence: Divergence): number {
  return recorded.filter(
    event => event.event === 'llm_end' && event.error === undefined && event.seq < divergence.seq,
  ).length;
}

/** Each scorer's score of `events` as the run of the case. */
async function scores(
  scorers: readonly Scorer[],
  recordedRun: RecordedRun,
  events: readonly TraceEvent[],
  recorded: readonly TraceEvent[],
): Promise<Record<string, Score>> {
  const end = events.findLast(event => event.event === 'run_end');
  const output = end?.event === 'run_end' ? end.output : undefined;
  const expected: RegressExpected = { recorded };
  const evalCase: EvalCase = { id: recordedRun.run, input: recordedRun.input, expected };
  const found: Record<string, Score> = {};
  for (const scorer of scorers)
    found[scorer.name] = await scorer.score({
      case: evalCase,
      output,
      trace: events,
      durationMs: 0,
    });
  return found;
}

/** Improved, regressed or unchanged: the mean of the new scores against the recorded ones. */
function verdictOf(
  before: Readonly<Record<string, Score>>,
  after: Readonly<Record<string, Score>>,
): RegressVerdict {
  const meanOf = (scores: Readonly<Record<string, Score>>) =>
    mean(Object.values(scores).map(score => score.score));
  const change = meanOf(after) - meanOf(before);
  return Math.abs(change) < 1e-9 ? 'unchanged' : change > 0 ? 'improved' : 'regressed';
}
