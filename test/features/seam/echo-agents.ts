/** The agents the seam's tests give features: they call a tool that echoes, then answer. */
import { agent, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { z } from 'zod';

const echo = tool({
  name: 'echo',
  description: 'Echo',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

/** An agent that calls `echo` `calls` times, then answers `done`. */
export const looping = (calls: number) =>
  agent({
    name: 'looper',
    model: fakeLLM(
      [
        ...Array.from({ length: calls }, (_, index) => ({
          toolCalls: [{ name: 'echo', args: { text: `t${index}` } }],
        })),
        { text: 'done' },
      ],
      { allowUnusedSteps: true },
    ),
    tools: [echo],
    limits: { maxDuplicateToolCalls: 10 },
  });

/** An agent that calls `echo` once, then answers `answer`. */
export const echoing = (answer = 'done') =>
  agent({
    name: 'echoer',
    model: fakeLLM([{ toolCalls: [{ name: 'echo', args: { text: 'hi' } }] }, { text: answer }], {
      allowUnusedSteps: true,
    }),
    tools: [echo],
  });
