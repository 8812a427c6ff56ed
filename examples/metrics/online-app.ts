/**
 * A live app's runs scored as they end: a tenth of them (drawn by run id), by three scorers that
 * need no judge, their scores written after each run into its JSONL trace and, with an OTLP sink,
 * to the team's backend next to its spans.
 */
import { run, type Agent, type TraceSink } from '@agent-trace/core';
import { noLoops, onlineScoring, repeatedToolCalls, toolErrorRate } from '@agent-trace/evals';

/** The app's scoring, made once at its start. */
export function appScoring(jsonl: TraceSink, otlp?: TraceSink, sample = 0.1) {
  return onlineScoring({
    scorers: [toolErrorRate(), noLoops(), repeatedToolCalls()],
    sample,
    maxCostUsd: 5,
    concurrency: 2,
    to: otlp === undefined ? jsonl : [jsonl, otlp],
  });
}

/** Answers a customer: the run is scored after it returns, never before. */
export function answer(desk: Agent, question: string, jsonl: TraceSink, scoring: TraceSink) {
  return run(desk, question, { trace: [jsonl, scoring] });
}
