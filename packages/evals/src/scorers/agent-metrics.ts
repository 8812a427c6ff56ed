import type { TraceEvent } from '@agent-trace/core';
import { canonicalJson } from '@agent-trace/core/util';
import { trajectoryOf, type TrajectoryStep } from './trajectory.js';

/** A tool call the run made before with the same arguments. */
export interface RepeatedCall {
  readonly tool: string;
  readonly args: unknown;
  /** Which time this is (2 for the first repeat). */
  readonly time: number;
}

/** The same arguments of a tool call, as a key. */
const callKey = (tool: string, args: unknown): string =>
  `${tool}\u0000${canonicalJson(args ?? null)}`;

/**
 * The run's tool calls that repeat an earlier call of the same tool with the same arguments
 * (compared as canonical JSON), in order.
 */
export function repeatedCalls(trace: readonly TraceEvent[]): RepeatedCall[] {
  const seen = new Map<string, number>();
  const repeats: RepeatedCall[] = [];
  for (const event of trace) {
    if (event.event !== 'tool_start') continue;
    const key = callKey(event.tool, event.args);
    const time = (seen.get(key) ?? 0) + 1;
    seen.set(key, time);
    if (time > 1) repeats.push({ tool: event.tool, args: event.args, time });
  }
  return repeats;
}

/** A step's name in a loop: `tool search`, `handoff billing`. */
const stepName = (step: TrajectoryStep): string =>
  'tool' in step ? `tool ${step.tool}` : `handoff ${step.handoff}`;

/**
 * The first loop of the run, or undefined: a handoff back to an agent that already had control
 * in this chain (`triage → billing → triage`), or a sequence of two or more different steps (tool
 * names and handoffs, arguments aside) that comes again right after itself (`search, fetch,
 * search, fetch`), `times` times or more.
 */
export function firstLoop(
  trace: readonly TraceEvent[],
  times = 2,
): { readonly kind: 'handoff' | 'steps'; readonly cycle: readonly string[] } | undefined {
  const chain: string[] = [];
  for (const event of trace) {
    if (event.event === 'run_start') chain.splice(0, chain.length, event.agent);
    if (event.event !== 'handoff_start' || event.mode !== 'pass_control') continue;
    const back = chain.indexOf(event.to);
    if (back !== -1) return { kind: 'handoff', cycle: [...chain.slice(back), event.to] };
    chain.push(event.to);
  }
  const names = trajectoryOf(trace).map(stepName);
  for (let length = 2; length * times <= names.length; length++)
    for (let start = 0; start + length * times <= names.length; start++) {
      const cycle = names.slice(start, start + length);
      if (new Set(cycle).size < 2) continue;
      const repeats = Array.from({ length: times - 1 }, (_, round) =>
        names.slice(start + length * (round + 1), start + length * (round + 2)),
      );
      if (repeats.every(next => next.every((name, index) => name === cycle[index])))
        return { kind: 'steps', cycle };
    }
  return undefined;
}

/** The run's tool calls that failed, and of those how many a later call of the same tool made good. */
export function toolErrors(trace: readonly TraceEvent[]): {
  readonly calls: number;
  readonly failed: number;
  readonly recovered: number;
} {
  let calls = 0;
  const failures: string[] = [];
  let recovered = 0;
  for (const event of trace) {
    if (event.event !== 'tool_end') continue;
    calls++;
    if (event.error !== undefined) failures.push(event.tool);
    else {
      // Every earlier failure of this tool is recovered by this success.
      const before = failures.length;
      for (let index = failures.length - 1; index >= 0; index--)
        if (failures[index] === event.tool) failures.splice(index, 1);
      recovered += before - failures.length;
    }
  }
  return { calls, failed: recovered + failures.length, recovered };
}

/**
 * How long the run took to its model's first token, in milliseconds: from the run's start to the
 * first chunk of its first model call (`first_chunk_ms`); a call that was not streamed gives its
 * whole answer at once, so its end counts. Undefined when the run made no model call.
 */
export function timeToFirstToken(
  trace: readonly TraceEvent[],
): { readonly ms: number; readonly streamed: boolean } | undefined {
  const start = trace.find(event => event.event === 'run_start');
  const call = trace.find(event => event.event === 'llm_end');
  if (start === undefined || call?.event !== 'llm_end') return undefined;
  const sent = Date.parse(call.time) - call.duration_ms;
  const first = call.first_chunk_ms;
  const at = first === undefined ? Date.parse(call.time) : sent + first;
  return { ms: Math.max(0, at - Date.parse(start.time)), streamed: first !== undefined };
}
