import type { TraceEvent } from '@agent-trace/core';
import { defined } from '@agent-trace/core/util';
import {
  recordedModel,
  rerunBridged,
  type BridgedAgent,
  type Recording,
  type RerunReport,
} from '@agent-trace/trace';
import type { BaseMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { type AgentTraceChatModel, langchainModel } from '../langchain-model.js';
import {
  agentTraceCallbacks,
  type AgentTraceCallbackHandler,
  type AgentTraceCallbacksOptions,
} from '../record/trace-callbacks.js';
import { threadHistory } from './thread-history.js';

/** What a LangGraph graph is rerun with: the recorded input, models, tools and callbacks. */
export interface LanggraphRerun {
  /** What the recorded run was asked (its last user message). */
  readonly input: string;
  /**
   * The messages the recorded run's thread held before its input (a checkpointer's earlier turns),
   * read from its first model call; empty for a run that started afresh. Invoke with
   * `{ messages: [...history, { role: 'user', content: input }] }`, so a thread's later turn
   * reruns alone.
   */
  readonly history: readonly BaseMessage[];
  /**
   * The chat model of the agent named `agent` in the recording (a node's name, or the prebuilt
   * agent's graph name): it answers that agent's recorded model calls in order, and fails a call
   * the recording does not have.
   */
  readonly model: (agent: string) => AgentTraceChatModel;
  /** The tools, each answering with its recorded result for the same arguments (unless `liveTools`). */
  readonly tools: <Tools extends readonly StructuredToolInterface[]>(tools: Tools) => Tools;
  /** Pass as the invocation's `callbacks`: they record the rerun. */
  readonly callbacks: AgentTraceCallbackHandler[];
}

/** Options of {@link rerunLanggraphTrace}. */
export interface RerunLanggraphOptions extends Pick<AgentTraceCallbacksOptions, 'clock' | 'ids'> {
  /** Run the real tools instead of answering from the recording. @defaultValue false */
  readonly liveTools?: boolean;
  /** The run to rerun, for a trace that holds several. @defaultValue the trace's first run */
  readonly runId?: string;
}

/**
 * Reruns a LangGraph graph, as the code defines it today, against a recorded run: each agent's
 * model answers from its recorded calls in order, tools answer from their recorded results, and
 * the new run, recorded as the first was, is compared with the recording step by step. The report
 * is `rerunTrace`'s: `same`, or the first divergence explained.
 *
 * @param trace - the recorded events, or the path of a JSONL trace (its first run is rerun)
 * @param graph - invokes the graph with what it is given (its models, tools and callbacks)
 */
export async function rerunLanggraphTrace(
  trace: readonly TraceEvent[] | string,
  graph: (rerun: LanggraphRerun) => unknown,
  options: RerunLanggraphOptions = {},
): Promise<RerunReport<unknown>> {
  return rerunBridged(
    trace,
    async (recording, sink) => {
      const callbacks = agentTraceCallbacks({
        trace: sink,
        ...defined('clock', options.clock),
        ...defined('ids', options.ids),
      });
      try {
        return await graph({
          input: recording.input,
          history: threadHistory(recording),
          model: name => langchainModel(recordedModel(name, recording), { agent: name }),
          tools: tools => (options.liveTools === true ? tools : recordedTools(tools, recording)),
          callbacks: [callbacks],
        });
      } finally {
        await callbacks.flush();
      }
    },
    options.runId,
  );
}

/**
 * The tools, each answering with its recorded result for the same name and arguments; a tool
 * whose recorded calls ran an agent (a subgraph invoked from it) runs, so the agent inside runs
 * again on its recorded answers.
 */
function recordedTools<Tools extends readonly StructuredToolInterface[]>(
  tools: Tools,
  recording: Recording,
): Tools {
  return tools.map(each =>
    recording.runsAgent(each.name)
      ? each
      : tool(
          async (args: unknown) => {
            const result = await recording.replayTool(each.name, args);
            return typeof result === 'string' ? result : JSON.stringify(result);
          },
          { name: each.name, description: each.description, schema: each.schema as never },
        ),
  ) as unknown as Tools;
}

/**
 * A LangGraph graph as a module exports it for `agent-trace rerun --agent`: the function that
 * invokes it with what a rerun gives (see {@link rerunLanggraphTrace}).
 *
 * @example
 * ```ts
 * export default langgraphAgent(({ input, history, model, tools, callbacks }) =>
 *   createReactAgent({ llm: model('forecaster'), tools: tools([weather]), name: 'forecaster' })
 *     .invoke({ messages: [...history, { role: 'user', content: input }] }, { callbacks }),
 * );
 * ```
 */
export function langgraphAgent(graph: (rerun: LanggraphRerun) => unknown): BridgedAgent {
  return {
    framework: 'langgraph',
    rerun: (trace, options) => rerunLanggraphTrace(trace, graph, options),
  };
}
