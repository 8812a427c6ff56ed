/**
 * An app that takes thumbs from its users: each answer's run goes to the trace file, and a thumbs
 * down given later (with the run id the app kept beside the answer) is recorded into that file,
 * and sent to the team's collector when an OTLP sink is given.
 */
import { run, type Agent, type TraceSink } from '@agent-trace/core';
import { jsonlSink, recordFeedback } from '@agent-trace/trace';

/** Answers a customer; the app keeps `runId` beside the answer it shows. */
export async function answer(desk: Agent, question: string, file: string): Promise<string> {
  const sink = jsonlSink(file);
  const result = await run(desk, question, { trace: sink });
  await sink.close();
  return result.runId;
}

/** The customer pressed thumbs down under the answer of run `runId`. */
export async function thumbsDown(file: string, runId: string, why: string, otlp?: TraceSink) {
  await recordFeedback(
    file,
    { run: runId, score: -1, comment: why, by: 'customer-42' },
    otlp === undefined ? {} : { export: otlp },
  );
}
