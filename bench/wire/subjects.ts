/**
 * The wire-level subjects: every framework on its own OpenAI provider, against the local Chat
 * Completions server (`chat-server.ts`), so request building, history serialisation and response
 * parsing are measured as a user's run has them. Same tool, same steps; the model name
 * `bench-<N>` tells the server how long the run is.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { ChatOpenAI } from '@langchain/openai';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import {
  Agent,
  run as runAgents,
  setDefaultOpenAIKey,
  setOpenAIAPI,
  setTracingDisabled,
} from '@openai/agents';
import { generateText, isStepCount, streamText } from 'ai';
import { add as langchainAdd } from '../peers/langgraph.js';
import { add as agentsAdd } from '../peers/openai-agents.js';
import { expectDone, type Subject } from '../peers/subject.js';
import { add as aiSdkAdd } from '../peers/vercel-ai.js';
import type { WireMode } from './wire-mode.js';
import { adapterAgent, adapterRun, modelName } from './adapter-run.js';
import { floorWire, openaiClientWire } from './floor.js';
import { wireNames } from './wire-names.js';

/**
 * agent-trace's OpenAI adapter (Chat Completions), `run` or `stream`. The agent is made once per
 * N, as an application defines its agents once: its model's client is made on the first call and
 * kept, as the official client alone and the Vercel AI SDK's provider are.
 */
export function agentTraceWire(baseURL: string, mode: WireMode): Subject {
  const agents = new Map<number, ReturnType<typeof adapterAgent>>();
  const agentFor = (steps: number) => {
    let made = agents.get(steps);
    if (made === undefined) {
      made = adapterAgent(steps, baseURL);
      agents.set(steps, made);
    }
    return made;
  };
  return {
    name: wireNames['agent-trace'],
    kind: 'agent-trace',
    prepare(steps) {
      const subject = agentFor(steps);
      return Promise.resolve({
        run: () => adapterRun(subject, mode),
        finish: () => Promise.resolve(),
      });
    },
  };
}

/** The Vercel AI SDK on `@ai-sdk/openai`'s Chat Completions model, `generateText` or `streamText`. */
export function vercelAiWire(baseURL: string, mode: WireMode): Subject {
  const provider = createOpenAI({ apiKey: 'bench', baseURL });
  return {
    name: wireNames['vercel-ai'],
    kind: 'peer',
    prepare(steps) {
      const options = {
        model: provider.chat(modelName(steps)),
        prompt: 'go',
        tools: { add: aiSdkAdd },
        stopWhen: isStepCount(steps),
      };
      return Promise.resolve({
        async run() {
          if (mode === 'json') {
            const result = await generateText(options);
            expectDone('The Vercel AI SDK', result.text);
            return result;
          }
          const streamed = streamText(options);
          for await (const part of streamed.fullStream) void part;
          expectDone('The Vercel AI SDK', await streamed.text);
          return streamed;
        },
        finish: () => Promise.resolve(),
      });
    },
  };
}

/** The OpenAI Agents SDK on its default OpenAI provider, set to Chat Completions, tracing off. */
export function openaiAgentsWire(baseURL: string, mode: WireMode): Subject {
  process.env.OPENAI_BASE_URL = baseURL;
  setDefaultOpenAIKey('bench');
  setOpenAIAPI('chat_completions');
  setTracingDisabled(true);
  return {
    name: wireNames['openai-agents'],
    kind: 'peer',
    prepare(steps) {
      const subject = new Agent({ name: 'bench', model: modelName(steps), tools: [agentsAdd] });
      return Promise.resolve({
        async run() {
          if (mode === 'json') {
            const result = await runAgents(subject, 'go', { maxTurns: steps + 1 });
            expectDone('The OpenAI Agents SDK', result.finalOutput);
            return result;
          }
          const result = await runAgents(subject, 'go', { maxTurns: steps + 1, stream: true });
          for await (const event of result) void event;
          await result.completed;
          expectDone('The OpenAI Agents SDK', result.finalOutput);
          return result;
        },
        finish: () => Promise.resolve(),
      });
    },
  };
}

/**
 * LangGraph's prebuilt ReAct agent on LangChain's `ChatOpenAI`; in stream mode the graph streams
 * its messages (`streamMode: 'messages'`), which makes the model stream. (`streaming: true` with
 * `invoke` never returns in @langchain/openai 1.6 against a stream that ends with `[DONE]`.)
 */
export function langchainWire(baseURL: string, mode: WireMode): Subject {
  process.env.LANGSMITH_TRACING = 'false';
  process.env.LANGCHAIN_TRACING_V2 = 'false';
  return {
    name: wireNames.langgraph,
    kind: 'peer',
    prepare(steps) {
      const llm = new ChatOpenAI({
        model: modelName(steps),
        apiKey: 'bench',
        configuration: { baseURL },
        maxRetries: 0,
      });
      const graph = createReactAgent({ llm, tools: [langchainAdd] });
      return Promise.resolve({
        async run() {
          const input = { messages: [{ role: 'user', content: 'go' }] };
          const recursionLimit = steps * 2 + 10;
          if (mode === 'json') {
            const result = await graph.invoke(input, { recursionLimit });
            const last = result.messages.at(-1);
            expectDone('LangGraph.js', typeof last?.content === 'string' ? last.content : '');
            return result;
          }
          let text = '';
          const messages: unknown[] = [];
          const chunks = await graph.stream(input, { streamMode: 'messages', recursionLimit });
          for await (const [message] of chunks) {
            messages.push(message);
            text += typeof message.content === 'string' ? message.content : '';
          }
          expectDone('LangGraph.js', text.endsWith('done') ? 'done' : text);
          return messages;
        },
        finish: () => Promise.resolve(),
      });
    },
  };
}

/** Every wire subject by key. */
export const wireSubjects = {
  'agent-trace': agentTraceWire,
  'vercel-ai': vercelAiWire,
  'openai-agents': openaiAgentsWire,
  langgraph: langchainWire,
  'openai-client': openaiClientWire,
  floor: floorWire,
} satisfies Record<string, (baseURL: string, mode: WireMode) => Subject>;

/** A key of {@link wireSubjects}. */
export type WireSubjectKey = keyof typeof wireSubjects;
