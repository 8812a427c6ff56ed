/**
 * LangGraph.js under the shared scenario: its prebuilt ReAct agent (`createReactAgent`, a graph of
 * a model node and a tool node) on a scripted chat model of our own (LangChain's fakes answer
 * text, not tool calls). LangSmith tracing is off, or on and sent to a LangSmith endpoint on
 * 127.0.0.1: LangGraph's own tracing mode (LangChain and LangGraph make no OpenTelemetry spans;
 * LangSmith's OpenTelemetry bridge only annotates spans that `traceable` functions start).
 */
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { addArguments } from '../scenario.js';
import { startLangSmithEndpoint } from './langsmith-endpoint.js';
import { expectDone, type Subject } from './subject.js';

/** A chat model that asks for `add` N−1 times, then answers "done". */
class ScriptedChatModel extends BaseChatModel {
  #call = 0;

  constructor(readonly steps: number) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  /** The tools are the script's business: binding them changes nothing. */
  override bindTools(): this {
    return this;
  }

  _generate(): Promise<ChatResult> {
    const index = this.#call++;
    const message =
      index < this.steps - 1
        ? new AIMessage({
            content: '',
            tool_calls: [{ id: `call_${index}`, name: 'add', args: addArguments(index) }],
          })
        : new AIMessage('done');
    return Promise.resolve({
      generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }],
    });
  }
}

/** The scenario's tool, as LangChain defines one. */
export const add = tool(({ a, b }: { a: number; b: number }) => String(a + b), {
  name: 'add',
  description: 'Add two numbers',
  schema: z.object({ a: z.number(), b: z.number() }),
});

/**
 * LangGraph.js with LangSmith tracing on, sent to an endpoint on 127.0.0.1. The tracer's
 * callbacks run in the background (LangChain's default), on the same thread as the next runs, so
 * back-to-back runs pay for them; awaiting them inside each run would time the client's batching
 * delay instead (about 39 ms a step). The client sends its batches in the background, as
 * `otlpSink` does.
 */
export async function langGraphLangSmith(): Promise<Subject> {
  const endpoint = await startLangSmithEndpoint();
  const subject = langGraph('LangGraph.js + LangSmith tracing');
  Object.assign(process.env, {
    LANGSMITH_TRACING: 'true',
    LANGSMITH_ENDPOINT: endpoint.url,
    LANGSMITH_API_KEY: 'bench',
    LANGSMITH_PROJECT: 'bench',
  });
  // The client says so on console.warn when its queue is full and it drops a run: counted, and
  // kept off the bench's output (thousands of lines).
  let dropped = 0;
  const warn = console.warn.bind(console);
  console.warn = (...data: unknown[]) => {
    if (typeof data[0] === 'string' && data[0].includes('Dropping run')) dropped++;
    else warn(...data);
  };
  return {
    ...subject,
    dropped: () => dropped,
    close: async () => {
      await awaitAllCallbacks();
      if (endpoint.ingestRequests === 0)
        throw new Error('LangSmith tracing sent nothing: the benchmark would measure tracing off.');
      await endpoint.close();
    },
  };
}

/** LangGraph.js's prebuilt ReAct agent. */
export function langGraph(name = 'LangGraph.js (createReactAgent)'): Subject {
  process.env.LANGSMITH_TRACING = 'false';
  process.env.LANGCHAIN_TRACING_V2 = 'false';
  return {
    name,
    kind: 'peer',
    prepare(steps) {
      const agent = createReactAgent({ llm: new ScriptedChatModel(steps), tools: [add] });
      return Promise.resolve({
        async run() {
          const result = await agent.invoke(
            { messages: [{ role: 'user', content: 'go' }] },
            { recursionLimit: steps * 2 + 10 },
          );
          const last = result.messages.at(-1);
          expectDone('LangGraph.js', typeof last?.content === 'string' ? last.content : '');
          return result;
        },
        finish: () => Promise.resolve(),
      });
    },
  };
}
