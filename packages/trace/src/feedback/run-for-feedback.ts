import type { TraceEvent } from '@agent-trace/core';
import { readTrace } from '../jsonl/read-trace.js';
import { describeTornTail, type TornTail } from '../jsonl/read-trace-lines.js';
import { FeedbackError } from './feedback-error.js';

/** What a feedback needs of the run it judges, as the trace file holds it. */
export interface JudgedRun {
  readonly run: string;
  readonly session: string;
  readonly traceId: string;
  /** The span the feedback judges: the run's entry agent's (the run's own when it has none). */
  readonly spanId: string;
  readonly agent: string;
  /** The run's highest seq so far, its earlier feedback's included. */
  readonly lastSeq: number;
}

interface Found {
  start?: TraceEvent & { event: 'run_start' };
  entry?: TraceEvent & { event: 'agent_start' };
  sealed: boolean;
  lastSeq: number;
}

/**
 * Finds run `run` in a trace file, streaming it: its ids, its entry agent's span, and the last seq
 * it and its feedback have. Throws a {@link FeedbackError} when the file has no such run or the run
 * has not ended (feedback judges finished runs).
 */
export async function runForFeedback(file: string, run: string): Promise<JudgedRun> {
  const found: Found = { sealed: false, lastSeq: -1 };
  const others: string[] = [];
  let torn: TornTail | undefined;
  const events = readTrace(file, {
    onTornTail: tail => (torn = tail),
    onNewerContent: () => undefined,
  });
  for await (const event of events) {
    if (event.run !== run) {
      if (event.event === 'run_start' && others.length < 5 && !others.includes(event.run))
        others.push(event.run);
      continue;
    }
    note(found, event);
  }
  if (torn !== undefined)
    throw new FeedbackError(
      `${describeTornTail(torn)} A feedback appended after it would join that line: remove the torn line first (repairTornTail from @agent-trace/trace does), then give the feedback again.`,
    );
  const { start } = found;
  if (start === undefined) {
    const some = others.length === 0 ? 'it holds no run' : `its runs include ${others.join(', ')}`;
    throw new FeedbackError(
      `${file} has no run '${run}' (${some}). Name a run of this file (agent-trace replay ${file} lists them), or give the file the run was written to.`,
    );
  }
  if (!found.sealed)
    throw new FeedbackError(
      `Run '${run}' in ${file} has not ended (no run_end): feedback judges finished runs. Wait for it to end: a run cut short by a crash has no end to judge.`,
    );
  return {
    run,
    session: start.session,
    traceId: start.trace_id,
    spanId: found.entry?.span_id ?? start.span_id,
    agent: found.entry?.agent ?? start.agent,
    lastSeq: found.lastSeq,
  };
}

function note(found: Found, event: TraceEvent): void {
  found.lastSeq = Math.max(found.lastSeq, event.seq);
  if (event.event === 'run_start') {
    // A resumed run's second part keeps the first's ids.
    found.start ??= event;
    found.sealed = false;
  } else if (
    event.event === 'agent_start' &&
    found.entry === undefined &&
    event.parent_span_id === found.start?.span_id
  )
    found.entry = event;
  else if (event.event === 'run_end') found.sealed = true;
}
