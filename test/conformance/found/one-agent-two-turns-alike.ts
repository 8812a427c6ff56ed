/**
 * Found by the program generator. Two turns of one agent ran side by side and sent requests that looked alike (the same first message, at some steps as many messages ending alike), so the rerun, matching recorded answers to turns by their messages, swapped them. Fixed: the model request names its turn's span (agentSpanId), and a rerun's turn answers from the recorded turn of its agent that started in the same place.
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

const program: Program = {
  agents: [
    {
      name: 'desk',
      instructions: 'Help.',
      tools: [],
      handoffs: [1],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
        {
          kind: 'text',
          text: 'Paris',
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'input-warn',
      maxSteps: 2,
    },
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'transform',
          outcomes: [
            {
              kind: 'value',
              value: 'undefined',
            },
            {
              kind: 'value',
              value: 'number',
            },
          ],
          timeoutMs: 10,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 0,
              seed: 3,
            },
            {
              tool: 2,
              form: 1,
              seed: 5,
            },
          ],
        },
        {
          kind: 'empty',
        },
        {
          kind: 'empty',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 0,
              seed: 3,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 1,
              seed: 4,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 8,
            },
          ],
        },
      ],
      modelAttempts: 2,
      toolRetries: 1,
      breaker: 4,
      guardrail: 'output-warn',
      fallback: [
        {
          kind: 'text',
          text: 'a "quoted" word',
        },
        {
          kind: 'text',
          text: 'refund',
        },
      ],
      maxSteps: 4,
      structured: true,
      temperature: 0,
    },
    {
      name: 'advisor',
      instructions: 'Help.',
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      maxSteps: 2,
      react: true,
      temperature: 0,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
      {
        agent: 1,
        after: false,
      },
    ],
  },
};

export const shape = foundShape(
  'generated: one agent in a workflow step and handed to by another step, sent the same input',
  'test/conformance/found/one-agent-two-turns-alike.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
