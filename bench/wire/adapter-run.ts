/**
 * agent-trace's wire subject and the floor's capture share this: the scenario's agent on the
 * OpenAI adapter against the chat server, and one run of it, JSON or streamed.
 */
import { agent, run, stream, type Agent, type RunResult } from '@agent-trace/core';
import { openai } from '@agent-trace/core/openai';
import { expectDone } from '../peers/subject.js';
import { addTool } from '../scenario.js';
import type { WireMode } from './wire-mode.js';

/** The model name that tells the chat server how long the run is. */
export const modelName = (steps: number): string => `bench-${steps}`;

/** The scenario's agent of `steps` model calls on the adapter (with `fetch`, when given). */
export function adapterAgent(steps: number, baseURL: string, fetch?: typeof globalThis.fetch) {
  return agent({
    name: 'bench',
    model: openai(modelName(steps), {
      apiKey: 'bench',
      baseURL,
      ...(fetch === undefined ? {} : { fetch }),
    }),
    tools: [addTool],
    limits: { maxSteps: steps, maxToolCallsPerTool: steps },
  });
}

/** One run of `subject` in `mode`, its chunks drained when streamed; throws unless it answered "done". */
export async function adapterRun(subject: Agent, mode: WireMode): Promise<RunResult> {
  let result: RunResult;
  if (mode === 'json') result = await run(subject, 'go');
  else {
    const streamed = stream(subject, 'go');
    for await (const chunk of streamed) void chunk;
    result = await streamed.result;
  }
  expectDone('agent-trace', result.output);
  return result;
}
