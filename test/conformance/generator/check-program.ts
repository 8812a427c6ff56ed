/**
 * The promise, checked on one generated program: its recording validates (P0), reruns unchanged as
 * the same (P1) in little real time whatever it waited for (P3), a planted change diverges where
 * it first shows and the words name it (P4), and a fork after a step reproduces the steps before
 * it (P5). Gives the first property that fails, in words, or undefined.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  resume,
  run,
  steppingClock,
  virtualClock,
  stream,
  type AnyAgent,
  type Message,
  type RunOptions,
  type RunResult,
  type TraceEvent,
} from '@agent-trace/core';
import type { ApprovalDecision, PendingApproval } from '@agent-trace/core/approval';
import { carriedCount } from '@agent-trace/core/conversation';
import {
  planAndRun,
  resumePlan,
  resumeWorkflow,
  runWorkflow,
  type PlanResult,
  type Workflow,
  type WorkflowResult,
} from '@agent-trace/core/workflow';
import { fakeLLM } from '@agent-trace/testing';
import {
  forkTrace,
  formatDivergence,
  isPlanTarget,
  type PlanTarget,
  jsonlSink,
  recordedConversations,
  recordedEvents,
  recordedRuns,
  rerunConversation,
  rerunTrace,
  validateTrace,
} from '@agent-trace/trace';
import { buildProgram, rerunBuild, tapeOf, type BuildOptions } from './build-program.js';
import { checkChanges } from './check-change.js';
import { programRunOptions } from './program-options.js';
import type { Program } from './program.js';

/** The longest a rerun may take, in real milliseconds, whatever the recorded run waited. */
export const rerunWallBoundMs = 2500;

/**
 * Runs `target` on `input` as the program says: an agent to the end, or streamed until the reader
 * stops; a workflow; a planned run. A pause for people's approval goes on, as decided, up to
 * three times.
 */
async function execute(
  program: Program,
  target: AnyAgent | Workflow | PlanTarget,
  input: string,
  options: RunOptions,
): Promise<unknown> {
  if (isPlanTarget(target)) return executePlan(program, target, input, options);
  if (!('toolRegistry' in target)) return executeWorkflow(program, target, input, options);
  let result: RunResult<unknown>;
  if (program.mode === 'run') result = await run(target, input, options);
  else {
    const chunks = stream(target, input, options);
    let read = 0;
    for await (const _chunk of chunks) {
      read++;
      if (program.stopReadingAfter !== undefined && read >= program.stopReadingAfter) break;
    }
    result = await chunks.result;
  }
  return goOn(program, result, (state, decisions) =>
    resume(target, state, { ...options, decisions }),
  );
}

async function executeWorkflow(
  program: Program,
  target: Workflow,
  input: string,
  options: RunOptions,
): Promise<WorkflowResult> {
  const { history: _none, ...workflowOptions } = options;
  return goOn(program, await runWorkflow(target, input, workflowOptions), (state, decisions) =>
    resumeWorkflow(target, state, { ...workflowOptions, decisions }),
  );
}

async function executePlan(
  program: Program,
  { planner, ...catalog }: PlanTarget,
  input: string,
  options: RunOptions,
): Promise<PlanResult> {
  const { history: _none, ...planOptions } = options;
  const first = await planAndRun(planner, input, { ...planOptions, ...catalog });
  return goOn(program, first, (state, decisions) =>
    resumePlan(planner, state, { ...planOptions, ...catalog, decisions }),
  );
}

/** Goes on from each pause of `result` (up to three), as the program's person decides. */
async function goOn<Result extends Paused>(
  program: Program,
  result: Result,
  resumed: (state: NonNullable<Result['state']>, decisions: ApprovalDecision[]) => Promise<Result>,
): Promise<Result> {
  let last = result;
  for (let pause = 0; pause < 3 && last.state !== undefined; pause++)
    last = await resumed(
      last.state as NonNullable<Result['state']>,
      last.interruptions.map(pending => decisionFor(program, pending)),
    );
  return last;
}

/** A run's result as far as a pause goes: the state it goes on from, and the calls that wait. */
interface Paused {
  readonly state: unknown;
  readonly interruptions: readonly PendingApproval[];
}

/** What the program's person decides on a call that waits: its agent's `approval`. */
function decisionFor(program: Program, pending: PendingApproval): ApprovalDecision {
  const said = program.agents.find(agent => agent.name === pending.agent)?.approval ?? 'approve';
  const by = { callId: pending.callId, by: 'ana' };
  if (said === 'reject') return { ...by, decision: 'reject', reason: 'not now' };
  if (said === 'edit') return { ...by, decision: 'edit', args: pending.args };
  return { ...by, decision: 'approve' };
}

/** Runs `program`'s turns once, its code built with `build`, into `trace` (or nowhere). */
async function perform(
  program: Program,
  build: BuildOptions,
  trace: RunOptions['trace'],
): Promise<void> {
  const caller = new AbortController();
  const target = buildProgram(program, {
    ...build,
    onEntryCall: call => {
      if (call === program.abortAtCall) caller.abort('the caller gave up');
    },
  });
  const options: RunOptions = {
    ...(trace === undefined ? {} : { trace }),
    clock: program.clock === 'virtual' ? virtualClock() : steppingClock(),
    ...programRunOptions(program),
  };
  if (program.secondTurn === undefined || isPlanTarget(target) || !('toolRegistry' in target)) {
    await execute(program, target, program.input, { ...options, signal: caller.signal });
    return;
  }
  // The turns of one conversation, as conversation() takes them: each from what the one before
  // left, recording only what its history adds to the previous turn's.
  const conversation = (turn: number, carried: number | undefined) => ({
    session: generatedConversation,
    conversation: {
      id: generatedConversation,
      turn,
      ...(carried === undefined ? {} : { carried }),
    },
  });
  const turns = [program.secondTurn, ...(program.moreTurns ?? [])];
  let left = (await run(target, program.input, { ...options, ...conversation(1, undefined) }))
    .messages;
  let ranFrom: readonly Message[] = [];
  for (const [index, message] of turns.entries()) {
    const turn = {
      ...options,
      ...conversation(index + 2, carriedCount(ranFrom, left)),
      history: left,
    };
    ranFrom = left;
    if (index === turns.length - 1) {
      await execute(program, target, message, { ...turn, signal: caller.signal });
      return;
    }
    left = (await run(target, message, turn)).messages;
  }
}

/** The id of a program's turns, one conversation. */
const generatedConversation = 'generated-conversation';

/**
 * Records `program` into the JSONL trace `file`: its first turn, and its second when it has one.
 * A `cassette` program records its cassette first, untraced, then runs answered from it.
 */
export async function recordProgram(program: Program, file: string): Promise<void> {
  if (program.cassette === true)
    await perform(program, { tape: { path: tapeOf(file), mode: 'record' } }, undefined);
  const sink = jsonlSink(file);
  try {
    await perform(program, rerunBuild(program, file), sink);
  } finally {
    await sink.close();
  }
}

/** P1 and P3 for each run of the recording, then P4 and P5 on its first. */
async function checkRecording(
  program: Program,
  file: string,
  events: readonly TraceEvent[],
  { changes, fork }: { changes: boolean; fork: boolean },
): Promise<string | undefined> {
  const runs = recordedRuns(events);
  for (const runId of runs) {
    const started = performance.now();
    const report = await rerunTrace(file, buildProgram(program, rerunBuild(program, file)), {
      runId,
      run: programRunOptions(program),
    });
    const took = performance.now() - started;
    if (!report.same)
      return `P1: run ${runs.indexOf(runId) + 1} of ${runs.length} reruns unchanged as diverged:\n${report.differences.slice(0, 3).map(formatDivergence).join('\n')}`;
    if (took > rerunWallBoundMs)
      return `P3: the rerun took ${Math.round(took)} ms (bound ${rerunWallBoundMs} ms)`;
  }
  const whole = await rerunConversations(program, file, events);
  if (whole !== undefined) return whole;
  const [runId] = runs;
  if (runId === undefined) return 'P0: the recording has no run';
  const firstRun = events.filter(event => event.run === runId);
  if (changes) {
    const found = await checkChanges(program, file, runs, events);
    if (found !== undefined) return found;
  }
  const answers = firstRun.filter(event => event.event === 'llm_end' && event.error === undefined);
  const target = buildProgram(program, rerunBuild(program, file));
  // A fork goes on from an agent's step: a workflow and a planned run are not forked here. Nor is
  // a run that waited for its rate limit: the fork runs without one (past the fork point a wait
  // would be real), so what the waits decided (a breaker cooling down) would go otherwise.
  const agentTarget = !isPlanTarget(target) && 'toolRegistry' in target;
  const waited = firstRun.some(event => event.event === 'rate_limit_wait');
  if (fork && answers.length >= 1 && program.secondTurn === undefined && agentTarget && !waited) {
    const afterStep = Math.min(program.forkAfter ?? 1, answers.length);
    const report = await forkTrace(file, target, {
      afterStep,
      model: fakeLLM([{ text: 'Forked.' }], { allowUnusedSteps: true }),
      runId,
      // Past the fork point time is real, as a live model's is: a rate limit of one call a
      // minute would wait a real minute.
      run: { ...programRunOptions(program), rateLimits: undefined },
    });
    if (!report.reproduced)
      return `P5: a fork after step ${afterStep} does not reproduce it:\n${report.firstDivergence === undefined ? '' : formatDivergence(report.firstDivergence)}`;
  }
  return undefined;
}

/** P1 for a recording's conversation as a whole: its turns rerun in order as the same. */
async function rerunConversations(
  program: Program,
  file: string,
  events: readonly TraceEvent[],
): Promise<string | undefined> {
  for (const { id } of recordedConversations(events)) {
    const target = buildProgram(program, rerunBuild(program, file));
    if (isPlanTarget(target) || !('toolRegistry' in target)) return undefined;
    const report = await rerunConversation(file, target, {
      conversationId: id,
      run: programRunOptions(program),
    });
    const first = report.firstDivergence;
    if (first !== undefined)
      return `P1: the conversation reruns unchanged as diverged at turn ${first.turn} of ${first.of}:\n${formatDivergence(first.divergence)}`;
  }
  return undefined;
}

/**
 * Records `program` and checks the promise on it (P0 to P5, P4 and P5 when asked). Gives the
 * first property that fails, in words, or undefined.
 */
export async function checkProgram(
  program: Program,
  options: { changes?: boolean; fork?: boolean } = {},
): Promise<string | undefined> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-generated-'));
  const file = join(folder, 'recording.jsonl');
  try {
    try {
      await recordProgram(program, file);
    } catch (error) {
      return `P0: recording the program threw: ${error instanceof Error ? error.stack : String(error)}`;
    }
    const events = await recordedEvents(file);
    const problems = validateTrace(events).problems;
    if (problems.length > 0)
      return `P0: the recording does not validate: ${JSON.stringify(problems.slice(0, 3))}`;
    return await checkRecording(program, file, events, {
      changes: options.changes ?? true,
      fork: options.fork ?? true,
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
