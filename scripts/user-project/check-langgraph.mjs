// Run by scripts/check-user-project.sh with @langchain/langgraph installed: a user's prebuilt
// ReAct agent runs from a FakeLLM script through the packed @agent-trace/langgraph, and its run is
// recorded as a valid trace.
import { agentTraceCallbacks, langchainModel } from '@agent-trace/langgraph';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';

const add = tool(({ a, b }) => String(a + b), {
  name: 'add',
  description: 'Add two numbers',
  schema: z.object({ a: z.number(), b: z.number() }),
});
const calculator = createReactAgent({
  llm: langchainModel(
    fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]),
  ),
  tools: [add],
  name: 'calculator',
});
const trace = memorySink();
const callbacks = agentTraceCallbacks({ trace });
const state = await calculator.invoke(
  { messages: [{ role: 'user', content: 'What is 2 + 3?' }] },
  { callbacks: [callbacks] },
);
await callbacks.flush();
const answer = state.messages.at(-1)?.content;
const { problems } = validateTrace(trace.events);
if (answer !== 'The sum is 5.' || problems.length > 0 || trace.events.at(-1)?.event !== 'run_end') {
  console.error(
    `✗ the LangGraph agent answered ${JSON.stringify(answer)}; trace problems: ${JSON.stringify(problems)}`,
  );
  process.exit(1);
}
console.log('✓ a LangGraph agent ran from a FakeLLM script and was recorded as a valid trace');
