/**
 * Found by the program generator. P1: a step decided on the budget before another step's answer had come; the rerun gave that answer at once, so the step was stopped. Answers of a run whose parts ran side by side now come at their recorded times.
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

const program: Program = {
  agents: [
    {
      name: 'desk',
      instructions: 'Answer with the tools.',
      tools: [
        {
          name: 'desk_t0',
          schema: 'refine',
          outcomes: [
            {
              kind: 'slow',
              ms: 16,
            },
            {
              kind: 'throw-string',
            },
            {
              kind: 'throw',
            },
          ],
          timeoutMs: 6,
        },
      ],
      handoffs: [1, 2, 3],
      asTools: [1],
      script: [
        {
          kind: 'malformed',
        },
      ],
      modelAttempts: 1,
      toolRetries: 2,
      breaker: false,
      guardrail: 'tool-warn',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 1,
              seed: 8,
            },
            {
              tool: 2,
              form: 1,
              seed: 3,
            },
          ],
        },
        {
          kind: 'text',
          text: 'Zürich 🚆',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 0,
              seed: 0,
            },
            {
              tool: 4,
              form: 0,
              seed: 1,
            },
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 0,
              seed: 0,
            },
          ],
        },
      ],
      maxSteps: 4,
      react: true,
      temperature: 0,
    },
    {
      name: 'billing',
      instructions: 'Be brief.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'slow',
              ms: 23,
            },
          ],
          timeoutMs: 22,
        },
        {
          name: 'billing_t1',
          schema: 'optional',
          outcomes: [
            {
              kind: 'throw',
            },
            {
              kind: 'throw',
            },
            {
              kind: 'value',
              value: 'null',
            },
          ],
          timeoutMs: 15,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'a "quoted" word',
        },
      ],
      modelAttempts: 1,
      toolRetries: 2,
      breaker: false,
      guardrail: 'none',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 0,
              seed: 1,
            },
          ],
        },
        {
          kind: 'text',
          text: 'Paris',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 1,
              seed: 2,
            },
            {
              tool: 5,
              form: 2,
              seed: 7,
            },
            {
              tool: 2,
              form: 1,
              seed: 6,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 2,
              seed: 4,
            },
            {
              tool: 2,
              form: 1,
              seed: 7,
            },
            {
              tool: 3,
              form: 0,
              seed: 8,
            },
          ],
        },
        {
          kind: 'empty',
        },
        {
          kind: 'fault',
          status: 500,
        },
      ],
      maxSteps: 2,
      temperature: 0,
    },
    {
      name: 'advisor',
      instructions: 'Answer with the tools.',
      tools: [
        {
          name: 'advisor_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'unicode',
            },
            {
              kind: 'throw-string',
            },
            {
              kind: 'throw-string',
            },
          ],
          timeoutMs: 21,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'malformed',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 0,
              seed: 6,
            },
            {
              tool: 0,
              form: 0,
              seed: 8,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 1,
              seed: 8,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 0,
              seed: 3,
            },
          ],
        },
      ],
      modelAttempts: 3,
      toolRetries: 2,
      breaker: 4,
      guardrail: 'none',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 1,
              seed: 9,
            },
          ],
        },
        {
          kind: 'fault',
          status: 400,
        },
        {
          kind: 'text',
          text: 'Paris',
        },
        {
          kind: 'empty',
        },
        {
          kind: 'empty',
        },
        {
          kind: 'empty',
        },
      ],
      maxSteps: 6,
      structured: true,
      react: true,
    },
    {
      name: 'planner',
      instructions: 'Help.',
      tools: [
        {
          name: 'planner_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'undefined',
            },
            {
              kind: 'value',
              value: 'nested',
            },
          ],
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
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
              form: 2,
              seed: 9,
            },
            {
              tool: 1,
              form: 2,
              seed: 8,
            },
            {
              tool: 3,
              form: 0,
              seed: 7,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'input-warn',
      fallback: [
        {
          kind: 'text',
          text: 'Paris',
        },
      ],
      maxSteps: 2,
      react: true,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  budget: {
    kind: 'shared',
    usd: 0.5,
  },
  workflow: {
    items: 3,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
      {
        agent: 2,
        after: true,
      },
    ],
    forEach: {
      tool: {
        name: 'each_item',
        schema: 'optional',
        outcomes: [
          {
            kind: 'value',
            value: 'undefined',
          },
          {
            kind: 'slow',
            ms: 2,
          },
          {
            kind: 'value',
            value: 'object',
          },
        ],
        timeoutMs: 39,
      },
      retries: 1,
    },
  },
};

export const shape = foundShape(
  'generated: parallel workflow steps under one cost limit',
  'test/conformance/found/budget-between-parallel-answers.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
