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
  stream,
  type AnyAgent,
  type RunOptions,
  type RunResult,
  type TraceEvent,
} from '@agent-trace/core';
import type { ApprovalDecision, PendingApproval } from '@agent-trace/core/approval';
import { fakeLLM } from '@agent-trace/testing';
import {
  forkTrace,
  formatDivergence,
  jsonlSink,
  recordedEvents,
  recordedRuns,
  rerunTrace,
  validateTrace,
  type Divergence,
} from '@agent-trace/trace';
import { buildProgram, programRunOptions, type PlantedChange } from './build-program.js';
import type { Program } from './program.js';

/** The longest a rerun may take, in real milliseconds, whatever the recorded run waited. */
export const rerunWallBoundMs = 2500;

/** Runs `entry` on `input` as the program says: to the end, or streamed until the reader stops. */
async function execute(
  program: Program,
  entry: AnyAgent,
  input: string,
  options: RunOptions,
): Promise<RunResult<unknown>> {
  let result: RunResult<unknown>;
  if (program.mode === 'run') result = await run(entry, input, options);
  else {
    const chunks = stream(entry, input, options);
    let read = 0;
    for await (const _chunk of chunks) {
      read++;
      if (program.stopReadingAfter !== undefined && read >= program.stopReadingAfter) break;
    }
    result = await chunks.result;
  }
  // A pause for people's approval goes on, as decided, up to three times.
  for (let pause = 0; pause < 3 && result.state !== undefined; pause++)
    result = await resume(entry, result.state, {
      ...options,
      decisions: result.interruptions.map(pending => decisionFor(program, pending)),
    });
  return result;
}

/** What the program's person decides on a call that waits: its agent's `approval`. */
function decisionFor(program: Program, pending: PendingApproval): ApprovalDecision {
  const said = program.agents.find(agent => agent.name === pending.agent)?.approval ?? 'approve';
  const by = { callId: pending.callId, by: 'ana' };
  if (said === 'reject') return { ...by, decision: 'reject', reason: 'not now' };
  if (said === 'edit') return { ...by, decision: 'edit', args: pending.args };
  return { ...by, decision: 'approve' };
}

/** Records `program` into the JSONL trace `file`: its first turn, and its second when it has one. */
export async function recordProgram(program: Program, file: string): Promise<void> {
  const caller = new AbortController();
  const entry = buildProgram(program, undefined, call => {
    if (call === program.abortAtCall) caller.abort('the caller gave up');
  });
  const sink = jsonlSink(file);
  const options: RunOptions = {
    trace: sink,
    clock: steppingClock(),
    ...programRunOptions(program),
  };
  try {
    if (program.secondTurn === undefined) {
      await execute(program, entry, program.input, { ...options, signal: caller.signal });
    } else {
      const first = await run(entry, program.input, options);
      await execute(program, entry, program.secondTurn, {
        ...options,
        history: first.messages,
        signal: caller.signal,
      });
    }
  } finally {
    await sink.close();
  }
}

/**
 * Where a change to a decision first shows: the entry agent's first breaker refusal, or its
 * guardrail's first warning. Undefined when the recorded run has none.
 */
function decisionAt(
  change: PlantedChange,
  entry: string,
  events: readonly TraceEvent[],
): TraceEvent | undefined {
  if (change === 'breaker threshold')
    return events.find(
      event =>
        event.agent === entry &&
        (event.event === 'tool_end' || event.event === 'llm_end') &&
        event.error?.type === 'circuit_open',
    );
  if (change === 'guardrail action')
    return events.find(
      event => event.agent === entry && event.event === 'guardrail' && event.verdict === 'warn',
    );
  return undefined;
}

/** The changes that show in `program`'s recorded run, and where: its entry's first model call. */
function plantable(program: Program, events: readonly TraceEvent[]): PlantedChange[] {
  const entry = program.agents[0];
  if (entry === undefined) return [];
  const called = events.some(
    event => event.event === 'llm_start' && event.agent === entry.name && event.step === 1,
  );
  if (!called) return [];
  const changes: PlantedChange[] = ['instructions', 'model name'];
  const first = entry.tools[0];
  if (first !== undefined) changes.push('tool description', 'tool removed');
  if (first?.schema === 'default') changes.push('schema default');
  for (const decision of ['breaker threshold', 'guardrail action'] as const)
    if (decisionAt(decision, entry.name, events) !== undefined) changes.push(decision);
  return changes;
}

const words: Record<PlantedChange, RegExp> = {
  instructions: /the instructions/,
  'model name': /the model: .*fake-model-2|fake-model-2/,
  'tool description': /description/,
  'tool removed': /the tool list/,
  'schema default': /schema: .*default: 5 → 6/,
  'breaker threshold': /fails: circuit_open/,
  'guardrail action': /says block/,
};

/** P4: a planted change diverges at the entry's first model call, in words that name it. */
async function checkChange(
  program: Program,
  file: string,
  runId: string,
  change: PlantedChange,
): Promise<string | undefined> {
  const report = await rerunTrace(file, buildProgram(program, change), {
    runId,
    run: programRunOptions(program),
  });
  const first = report.firstDivergence;
  if (first === undefined) return `P4 (${change}): the rerun says same`;
  const event = (first.kind === 'missing' ? report.recorded : report.rerun).find(
    each => each.seq === first.seq,
  );
  const entry = program.agents[0]?.name ?? '';
  const decision = decisionAt(change, entry, report.recorded);
  const at =
    decision === undefined
      ? event?.event === 'llm_start' && event.agent === entry && event.step === 1
      : atDecision(decision, first);
  const said = [first.expected, first.actual, ...(first.explanation ?? []).map(c => c.summary)];
  if (!at)
    return `P4 (${change}): the first divergence is not where the change first shows (${decision === undefined ? "the entry's first model call" : `seq ${decision.seq}`}):\n${formatDivergence(first)}`;
  if (!said.some(text => text !== undefined && words[change].test(text)))
    return `P4 (${change}): the words do not name the change:\n${formatDivergence(first)}`;
  return undefined;
}

/** True when the divergence is at the recorded decision `step` (the recording's side of it). */
function atDecision(step: TraceEvent, first: Divergence): boolean {
  if (first.kind === 'extra' || first.expected === undefined) return false;
  if (step.event === 'guardrail')
    return first.expected.startsWith(`guardrail '${step.guardrail}' (${step.stage})`);
  return first.expected.includes('circuit_open');
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
    const report = await rerunTrace(file, buildProgram(program), {
      runId,
      run: programRunOptions(program),
    });
    const took = performance.now() - started;
    if (!report.same)
      return `P1: run ${runs.indexOf(runId) + 1} of ${runs.length} reruns unchanged as diverged:\n${report.differences.slice(0, 3).map(formatDivergence).join('\n')}`;
    if (took > rerunWallBoundMs)
      return `P3: the rerun took ${Math.round(took)} ms (bound ${rerunWallBoundMs} ms)`;
  }
  const [runId] = runs;
  if (runId === undefined) return 'P0: the recording has no run';
  const firstRun = events.filter(event => event.run === runId);
  if (changes)
    for (const change of plantable(program, firstRun)) {
      const found = await checkChange(program, file, runId, change);
      if (found !== undefined) return found;
    }
  const answers = firstRun.filter(event => event.event === 'llm_end' && event.error === undefined);
  if (fork && answers.length >= 1 && program.secondTurn === undefined) {
    const report = await forkTrace(file, buildProgram(program), {
      afterStep: 1,
      model: fakeLLM([{ text: 'Forked.' }], { allowUnusedSteps: true }),
      runId,
      run: programRunOptions(program),
    });
    if (!report.reproduced)
      return `P5: a fork after step 1 does not reproduce it:\n${report.firstDivergence === undefined ? '' : formatDivergence(report.firstDivergence)}`;
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
