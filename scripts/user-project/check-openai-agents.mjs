// Run by scripts/check-user-project.sh after the missing-peer checks, with @openai/agents installed
// then (it brings the openai package, which those checks need absent): a user's Agents SDK agent
// runs from a FakeLLM script through the packed @agent-trace/openai-agents.
import { openaiAgentsModel, withAgentTrace } from '@agent-trace/openai-agents';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { fakeLLM } from '@agent-trace/testing';
import { Agent, run, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';

setTracingDisabled(true);
const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const calculator = new Agent({
  name: 'calculator',
  tools: [add],
  model: openaiAgentsModel(
    fakeLLM([{ toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]),
  ),
});
const result = await run(calculator, 'What is 2 + 3?');
if (result.finalOutput !== 'The sum is 5.') {
  console.error(`✗ the Agents SDK agent answered ${JSON.stringify(result.finalOutput)}`);
  process.exit(1);
}
console.log('✓ an OpenAI Agents SDK agent ran from a FakeLLM script');

// Recorded: only this run, into memory, as a valid trace.
const trace = memorySink();
await withAgentTrace({ trace }, () =>
  run(calculator.clone({ model: openaiAgentsModel(fakeLLM([{ text: 'Five.' }])) }), 'Again?'),
);
const { problems } = validateTrace(trace.events);
if (problems.length > 0 || trace.events.at(-1)?.event !== 'run_end') {
  console.error(`✗ the recorded Agents SDK run: ${JSON.stringify(problems)}`);
  process.exit(1);
}
console.log('✓ an OpenAI Agents SDK run was recorded as a valid trace');
