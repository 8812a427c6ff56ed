/**
 * The scenario every loop benchmark runs: a scripted model asks for a trivial `add` tool N−1
 * times, then answers "done".
 */
import { agent, tool, type LanguageModel, type ToolCalling } from '@agent-trace/core';
import type { FakeLLMStep } from '@agent-trace/testing';
import { z } from 'zod';

/** The arguments of the n-th `add` call. */
export const addArguments = (index: number): { a: number; b: number } => ({ a: index, b: 1 });

/** The tool. */
export const addTool = tool({
  name: 'add',
  description: 'Add two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** The FakeLLM script of a run of `steps` model calls. */
export function addScript(steps: number): FakeLLMStep[] {
  return [
    ...Array.from({ length: steps - 1 }, (_, index): FakeLLMStep => ({
      toolCalls: [{ name: 'add', args: addArguments(index) }],
      usage: { promptTokens: 10, completionTokens: 5 },
    })),
    { text: 'done', usage: { promptTokens: 10, completionTokens: 1 } },
  ];
}

/** The same run in ReAct text: each step a Thought, an Action and its input, then a Final Answer. */
export function addReActScript(steps: number): FakeLLMStep[] {
  return [
    ...Array.from({ length: steps - 1 }, (_, index): FakeLLMStep => ({
      text: `Thought: add them.\nAction: add\nAction Input: ${JSON.stringify(addArguments(index))}`,
      usage: { promptTokens: 10, completionTokens: 5 },
    })),
    {
      text: 'Thought: finished.\nFinal Answer: done',
      usage: { promptTokens: 10, completionTokens: 1 },
    },
  ];
}

/** The agent, on `model`, with limits that let it make `steps` model calls. */
export const adderAgent = (
  model: LanguageModel,
  steps: number,
  toolCalling: ToolCalling = 'native',
) =>
  agent({
    name: 'bench',
    model,
    tools: [addTool],
    toolCalling,
    limits: { maxSteps: steps, maxToolCallsPerTool: steps },
  });
