import { type TraceEvent, type TraceEventOf } from '@agent-trace/core';
import { canonicalJson } from '@agent-trace/core/internal';
import { readTrace } from '../jsonl/read-trace.js';

/** A recorded model call: the request's fingerprint and what came back. */
export interface RecordedCall {
  readonly start: TraceEventOf<'llm_start'>;
  readonly end: TraceEventOf<'llm_end'>;
}

/**
 * What a recorded run answered: each agent's model calls in order, and each tool result by tool
 * name and canonical arguments, in order (retries recorded one after another).
 */
export class Recording {
  readonly input: string;
  /** The input of the run's first workflow, as given (a workflow run's input need not be text). */
  readonly workflowInput: unknown;
  readonly runId: string;
  readonly #calls = new Map<string, RecordedCall[]>();
  readonly #tools = new Map<string, TraceEventOf<'tool_end'>[]>();

  constructor(events: readonly TraceEvent[]) {
    const start = events.find(
      (event): event is TraceEventOf<'run_start'> => event.event === 'run_start',
    );
    if (start === undefined) {
      throw new Error(
        'The trace has no run_start: it cannot be rerun. Pass a complete trace (agent-trace validate tells what is missing).',
      );
    }
    this.input = start.input;
    this.runId = start.run;
    const workflow = events.find(
      event => event.run === start.run && event.event === 'workflow_start',
    );
    this.workflowInput = workflow?.event === 'workflow_start' ? workflow.input : start.input;
    const starts = new Map<string, TraceEventOf<'llm_start'>>();
    for (const event of events) {
      if (event.run !== start.run) continue;
      if (event.event === 'llm_start') starts.set(event.span_id, event);
      else if (event.event === 'llm_end') {
        const call = starts.get(event.span_id);
        if (call === undefined) continue;
        const list = this.#calls.get(event.agent) ?? [];
        list.push({ start: call, end: event });
        this.#calls.set(event.agent, list);
      } else if (event.event === 'tool_end') {
        const key = toolKey(event.tool, event.args);
        const list = this.#tools.get(key) ?? [];
        list.push(event);
        this.#tools.set(key, list);
      }
    }
  }

  /** The model `agent` called first in the recording, as its `llm_start` names it. */
  modelOf(agent: string): { readonly provider: string; readonly model: string } | undefined {
    const first = this.#calls.get(agent)?.[0]?.start;
    return first === undefined ? undefined : { provider: first.provider, model: first.model };
  }

  /** The next recorded model call of `agent`, if any. */
  nextCall(agent: string): RecordedCall | undefined {
    return this.#calls.get(agent)?.shift();
  }

  /** The next recorded result of `tool` called with `args`, if any. */
  nextToolResult(tool: string, args: unknown): TraceEventOf<'tool_end'> | undefined {
    return this.#tools.get(toolKey(tool, args))?.shift();
  }

  /**
   * Answers a call of `tool` with `args` as the recording did: its next recorded result, or its
   * recorded failure thrown again with the message the tool gave (the loop's `Tool '…' failed: `
   * taken off); `missing` answers when the recording has no such call.
   */
  answerTool<Missing>(tool: string, args: unknown, missing: () => Missing): unknown {
    const recorded = this.nextToolResult(tool, args);
    if (recorded === undefined) return missing();
    if (recorded.error !== undefined)
      throw new Error(recorded.error.message.replace(/^Tool '[^']*' failed: /, ''));
    return recorded.result;
  }

  /**
   * Answers a call of `tool` with `args` as the recording did (see {@link Recording.answerTool});
   * a call the recording does not have fails, saying how to run the real tool instead.
   */
  replayTool(tool: string, args: unknown): unknown {
    return this.answerTool(tool, args, () => {
      throw new Error(
        `Rerun: the recording has no result of tool '${tool}' for these arguments: today's code calls it differently (or more often) than the recorded run did. The comparison shows where; rerun with live tools (--live-tools, or liveTools: true) to run the real tool instead.`,
      );
    });
  }

  /** What the recording names `agent`'s model, to stand in for it: its provider and model id. */
  identityOf(agent: string): { readonly provider: string; readonly modelId: string } {
    const recorded = this.modelOf(agent);
    return { provider: recorded?.provider ?? 'recording', modelId: recorded?.model ?? agent };
  }
}

function toolKey(tool: string, args: unknown): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}

/** A recording's events: as given, or read from the JSONL trace file at `trace`. */
export async function recordedEvents(
  trace: readonly TraceEvent[] | string,
): Promise<readonly TraceEvent[]> {
  if (typeof trace !== 'string') return trace;
  const events: TraceEvent[] = [];
  for await (const event of readTrace(trace)) events.push(event);
  return events;
}
