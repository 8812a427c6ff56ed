/**
 * The desk in production: customers ask where their orders are; every run is traced to JSONL and
 * scored online as it ends; a customer whose order is late presses thumbs down.
 */
import { run } from '@agent-trace/core';
import { noLoops, onlineScoring, toolErrorRate } from '@agent-trace/evals';
import { jsonlSink, recordFeedback } from '@agent-trace/trace';
import { shippingDesk } from './desk.js';

/**
 * `count` customers ask about orders 1 to `count`; returns each run's id by order. `release` is
 * the deployed commit, written on each run (a real app passes e.g. `process.env.GIT_COMMIT`).
 */
export async function production(
  file: string,
  count: number,
  release = 'c0ffee1',
): Promise<string[]> {
  const sink = jsonlSink(file);
  const scoring = onlineScoring({ scorers: [toolErrorRate(), noLoops()], to: sink });
  const runs: string[] = [];
  for (let order = 1; order <= count; order++) {
    const result = await run(shippingDesk('v1'), `Where is my order ${order}?`, {
      trace: [sink, scoring],
      release,
    });
    runs.push(result.runId);
  }
  await scoring.drain();
  await sink.close();
  return runs;
}

/** The customer of a late order presses thumbs down under the answer, saying why. */
export async function thumbsDown(file: string, runId: string, customer: string) {
  await recordFeedback(file, {
    run: runId,
    score: -1,
    comment: 'It did not come tomorrow: it is delayed.',
    by: customer,
  });
}
