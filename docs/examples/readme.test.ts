// README.md, "An agent, a run, a trace": the example as written, run in the suite.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { agent, tool, run, stream } from '@agent-trace/core';
import { jsonlSink, memorySink, readTrace } from '@agent-trace/trace';
import { fakeLLM } from '@agent-trace/testing';
import { expect, it } from 'vitest';

it("runs the README's calculator, writes its trace and streams it", async () => {
  const add = tool({
    name: 'add',
    description: 'Add two numbers',
    input: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const calculator = (steps = 10) =>
    agent({
      name: 'calculator',
      instructions: 'Use the add tool.',
      model: fakeLLM([
        { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
        { text: 'The sum is 5.' },
      ]),
      tools: [add],
      limits: { maxSteps: steps },
    });
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-readme-')), 'run.jsonl');
  const sink = jsonlSink(file);
  const result = await run(calculator(), 'What is 2 + 3?', { trace: sink });
  await sink.close();
  expect(result).toMatchObject({ output: 'The sum is 5.', stopReason: 'completed' });
  expect(result.toolCalls).toMatchObject([{ toolName: 'add', result: 5 }]);
  const kinds: string[] = [];
  for await (const event of readTrace(file)) kinds.push(event.event);
  expect(kinds.slice(0, 3)).toEqual(['run_start', 'agent_start', 'llm_start']);

  const s = stream(calculator(), 'What is 2 + 3?', { trace: memorySink() });
  let text = '';
  for await (const chunk of s) if (chunk.type === 'delta') text += chunk.data.text;
  const { stopReason } = await s.result;
  expect([text, stopReason]).toEqual(['The sum is 5.', 'completed']);
});
