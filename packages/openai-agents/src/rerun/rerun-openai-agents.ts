import type { TraceEvent } from '@agent-trace/core';
import { jsonOrText } from '@agent-trace/core/record';
import { defined } from '@agent-trace/core/util';
import {
  recordedModel,
  rerunBridged,
  type BridgedAgent,
  type Recording,
  type RerunReport,
} from '@agent-trace/trace';
import type { Model, Tool } from '@openai/agents';
import { openaiAgentsModel, sdk } from '../openai-agents-model.js';
import type { AgentTraceProcessorOptions } from '../record/trace-processor.js';
import { withAgentTrace } from '../record/with-agent-trace.js';

/** What an Agents SDK agent is rerun with: the recorded input, models and tools. */
export interface OpenaiAgentsRerun {
  /** What the recorded run was asked (its first user message). */
  readonly input: string;
  /**
   * The model of the agent named `agent` in the recording: it answers that agent's recorded model
   * calls in order, and fails a call the recording does not have.
   */
  readonly model: (agent: string) => Model;
  /**
   * Function tools, each answering with its recorded result for the same arguments (unless
   * `liveTools`). Pass your own tools only: an agent used as a tool (`asTool`) runs as itself.
   */
  readonly tools: <Tools extends readonly Tool[]>(tools: Tools) => Tools;
}

/** Options of {@link rerunOpenaiAgentsTrace}. */
export interface RerunOpenaiAgentsOptions extends Pick<
  AgentTraceProcessorOptions,
  'clock' | 'ids'
> {
  /** Run the real tools instead of answering from the recording. @defaultValue false */
  readonly liveTools?: boolean;
  /** The run to rerun, for a trace that holds several. @defaultValue the trace's first run */
  readonly runId?: string;
}

/**
 * Reruns Agents SDK agents, as the code defines them today, against a recorded run: each agent's
 * model answers from its recorded calls in order, tools answer from their recorded results, and
 * the new run, recorded through the SDK's tracing as the first was, is compared with the recording
 * step by step. The report is `rerunTrace`'s: `same`, or the first divergence explained.
 *
 * The rerun is recorded with {@link withAgentTrace}: only the runs `agent` makes.
 *
 * @param trace - the recorded events, or the path of a JSONL trace (its first run is rerun)
 * @param agent - runs the agents with what it is given (their `run` call)
 */
export async function rerunOpenaiAgentsTrace(
  trace: readonly TraceEvent[] | string,
  agent: (rerun: OpenaiAgentsRerun) => unknown,
  options: RerunOpenaiAgentsOptions = {},
): Promise<RerunReport<unknown>> {
  return rerunBridged(
    trace,
    (recording, sink) =>
      withAgentTrace(
        { trace: sink, ...defined('clock', options.clock), ...defined('ids', options.ids) },
        () =>
          agent({
            input: recording.input,
            model: name => openaiAgentsModel(recordedModel(name, recording), { agent: name }),
            tools: tools => (options.liveTools === true ? tools : recordedTools(tools, recording)),
          }),
      ),
    options.runId,
  );
}

/** The function tools, each answering with its recorded result for the same name and arguments. */
function recordedTools<Tools extends readonly Tool[]>(tools: Tools, recording: Recording): Tools {
  return tools.map(tool => {
    if (tool.type !== 'function' || recording.runsAgent(tool.name)) return tool;
    const { name } = tool;
    return {
      ...tool,
      invoke: (_context: unknown, input: string) => recording.replayTool(name, jsonOrText(input)),
    };
  }) as unknown as Tools;
}

/**
 * Agents SDK agents as a module exports them for `agent-trace rerun --agent`: the function that
 * runs them with what a rerun gives (see {@link rerunOpenaiAgentsTrace}).
 *
 * @example
 * ```ts
 * export default openaiAgentsAgent(({ input, model, tools }) =>
 *   run(new Agent({ name: 'forecaster', model: model('forecaster'), tools: tools([weather]) }), input),
 * );
 * ```
 */
export function openaiAgentsAgent(
  agent: (rerun: OpenaiAgentsRerun) => unknown,
): BridgedAgent & AsyncDisposable {
  return {
    framework: 'openai-agents',
    rerun: (trace, options) => rerunOpenaiAgentsTrace(trace, agent, options),
    /**
     * What `agent-trace rerun` calls when it is done with the module: the SDK's own trace
     * processors are shut down (its default exporter keeps timers that would hold the process
     * as it ends).
     */
    async [Symbol.asyncDispose]() {
      await (await sdk()).getGlobalTraceProvider().shutdown();
    },
  };
}
