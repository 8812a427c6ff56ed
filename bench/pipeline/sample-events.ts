/** Real trace events to push through the pipeline: one recorded run of the loop scenario. */
import { agent, run, tool, type TraceEvent } from '@agent-trace/core';
import { fakeLLM, type FakeLLMStep } from '@agent-trace/testing';
import { memorySink } from '@agent-trace/trace';
import { z } from 'zod';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** The events of one run of `steps` model calls (4 events per step, plus the run's own). */
export async function sampleEvents(steps = 1000): Promise<TraceEvent[]> {
  const script: FakeLLMStep[] = [
    ...Array.from({ length: steps - 1 }, (_, index) => ({
      toolCalls: [{ name: 'add', args: { a: index, b: 1 } }],
      usage: { promptTokens: 10, completionTokens: 5 },
    })),
    { text: 'done' },
  ];
  const sink = memorySink();
  await run(
    agent({
      name: 'bench',
      model: fakeLLM(script),
      tools: [add],
      limits: { maxSteps: steps, maxToolCallsPerTool: steps },
    }),
    'go',
    { trace: sink },
  );
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
