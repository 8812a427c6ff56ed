import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { TraceEvent } from '@agent-trace/core';
import { defined } from '@agent-trace/core/util';
import {
  recordedModel,
  rerunBridged,
  type BridgedAgent,
  type Recording,
  type RerunReport,
} from '@agent-trace/trace';
import type { Telemetry, ToolSet } from 'ai';
import { aiSdkModel } from '../ai-sdk-model.js';
import { agentTraceTelemetry, type AgentTraceTelemetryOptions } from '../record/trace-telemetry.js';

/** What an AI SDK agent is rerun with: the recorded input, models, tools and a recorder. */
export interface AiSdkRerun {
  /** What the recorded run was asked (its last user message). */
  readonly input: string;
  /**
   * The model of `agent` (its name in the recording: the `functionId`, or `ai-sdk`): it answers
   * that agent's recorded model calls in order, and fails a call the recording does not have.
   */
  readonly model: (agent?: string) => LanguageModelV4;
  /** The tools, each answering with its recorded result for the same input (unless `liveTools`). */
  readonly tools: <Tools extends ToolSet>(tools: Tools) => Tools;
  /** Pass as the agent's `telemetry` (with the same `functionId`s as recorded): it records the rerun. */
  readonly telemetry: { readonly integrations: Telemetry[]; readonly functionId?: string };
}

/** Options of {@link rerunAiSdkTrace}. */
export interface RerunAiSdkOptions extends Pick<AgentTraceTelemetryOptions, 'clock' | 'ids'> {
  /** Run the real tools instead of answering from the recording. @defaultValue false */
  readonly liveTools?: boolean;
  /** The run to rerun, for a trace that holds several. @defaultValue the trace's first run */
  readonly runId?: string;
}

/**
 * Reruns an AI SDK agent, as the code defines it today, against a recorded run of it: each
 * agent's model answers from its recorded calls in order, tools answer from their recorded
 * results, and the new run, recorded as the first was, is compared with the recording step by
 * step. The report is `rerunTrace`'s: `same`, or the first divergence explained (a changed
 * instruction, tool description or message, a call the recording lacks).
 *
 * @param trace - the recorded events, or the path of a JSONL trace (its first run is rerun)
 * @param agent - runs the agent with what it is given (its `generateText`/`streamText` call)
 */
export async function rerunAiSdkTrace(
  trace: readonly TraceEvent[] | string,
  agent: (rerun: AiSdkRerun) => unknown,
  options: RerunAiSdkOptions = {},
): Promise<RerunReport<unknown>> {
  return rerunBridged(
    trace,
    async (recording, sink) => {
      const telemetry = agentTraceTelemetry({
        trace: sink,
        ...defined('clock', options.clock),
        ...defined('ids', options.ids),
      });
      try {
        return await agent({
          input: recording.input,
          model: (name = 'ai-sdk') => aiSdkModel(recordedModel(name, recording), { agent: name }),
          tools: tools => (options.liveTools === true ? tools : recordedTools(tools, recording)),
          telemetry: { integrations: [telemetry] },
        });
      } finally {
        await telemetry.flush();
      }
    },
    options.runId,
  );
}

/**
 * The tools, each answering with its recorded result for the same name and input; a tool whose
 * recorded calls ran an agent (its `execute` calls `generateText`) runs, so the agent inside
 * runs again on its recorded answers.
 */
function recordedTools<Tools extends ToolSet>(tools: Tools, recording: Recording): Tools {
  const answering: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools))
    answering[name] = recording.runsAgent(name)
      ? tool
      : {
          ...tool,
          execute: (input: unknown) => recording.replayTool(name, input),
        };
  return answering as Tools;
}

/**
 * An AI SDK agent as a module exports it for `agent-trace rerun --agent`: the function that runs
 * it with what a rerun gives (see {@link rerunAiSdkTrace}).
 *
 * @example
 * ```ts
 * export default aiSdkAgent(({ input, model, tools, telemetry }) =>
 *   generateText({ model: model('forecaster'), tools: tools({ weather }), prompt: input, telemetry: { ...telemetry, functionId: 'forecaster' } }),
 * );
 * ```
 */
export function aiSdkAgent(agent: (rerun: AiSdkRerun) => unknown): BridgedAgent {
  return {
    framework: 'ai-sdk',
    rerun: (trace, options) => rerunAiSdkTrace(trace, agent, options),
  };
}
