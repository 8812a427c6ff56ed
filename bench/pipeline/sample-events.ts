/** Real trace events to push through the pipeline: one recorded run of the loop scenario. */
import { run, type TraceEvent } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { adderAgent, addScript } from '../scenario.js';

/** The events of one run of `steps` model calls (4 events per step, plus the run's own). */
export async function sampleEvents(steps = 1000): Promise<TraceEvent[]> {
  const sink = memorySink();
  await run(adderAgent(fakeLLM(addScript(steps)), steps), 'go', { trace: sink });
  return [...sink.events];
}

/** `copies` runs' worth of events: the sample again with a different run id each time. */
export function repeatRuns(events: readonly TraceEvent[], copies: number): TraceEvent[] {
  const all: TraceEvent[] = [];
  for (let copy = 0; copy < copies; copy++) {
    const run = `bench-run-${copy}`;
    for (const event of events) all.push({ ...event, run, session: run });
  }
  return all;
}
