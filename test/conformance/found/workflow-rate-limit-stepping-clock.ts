/**
 * Found by the program generator. P1: the stepping clock's sleeps added up across parallel steps (a 60 s wait beside another took 120 s), so the rate limit's waits could not be decided again; sleeps now wake in time order, and a call past its recording waits for the replayed stop.
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
      handoffs: [],
      asTools: [3],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 5,
            },
            {
              tool: 1,
              form: 2,
              seed: 2,
            },
          ],
        },
        {
          kind: 'text',
          text: '注文',
        },
        {
          kind: 'text',
          text: 'Paris',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 8,
            },
            {
              tool: 1,
              form: 1,
              seed: 6,
            },
            {
              tool: 3,
              form: 1,
              seed: 4,
            },
          ],
        },
        {
          kind: 'malformed',
        },
        {
          kind: 'empty',
        },
      ],
      modelAttempts: 1,
      toolRetries: 2,
      breaker: false,
      guardrail: 'none',
      maxSteps: 3,
      react: true,
    },
    {
      name: 'billing',
      instructions: 'Be brief.',
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 0,
              seed: 5,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 2,
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
              seed: 8,
            },
            {
              tool: 1,
              form: 0,
              seed: 0,
            },
          ],
        },
      ],
      modelAttempts: 3,
      toolRetries: 0,
      breaker: false,
      guardrail: 'tool-block',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 1,
              seed: 2,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 1,
              seed: 4,
            },
            {
              tool: 5,
              form: 0,
              seed: 8,
            },
          ],
        },
        {
          kind: 'malformed',
        },
        {
          kind: 'malformed',
        },
        {
          kind: 'malformed',
        },
      ],
      maxSteps: 3,
    },
    {
      name: 'advisor',
      instructions: 'Answer with the tools.',
      tools: [
        {
          name: 'advisor_t0',
          schema: 'refine',
          outcomes: [
            {
              kind: 'value',
              value: 'bigint',
            },
            {
              kind: 'value',
              value: 'bigint',
            },
            {
              kind: 'value',
              value: 'date',
            },
          ],
          timeoutMs: 40,
        },
        {
          name: 'advisor_t1',
          schema: 'preprocess',
          outcomes: [
            {
              kind: 'value',
              value: 'number',
            },
            {
              kind: 'value',
              value: 'big',
            },
            {
              kind: 'value',
              value: 'big',
            },
          ],
          timeoutMs: 35,
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
              form: 2,
              seed: 1,
            },
            {
              tool: 3,
              form: 0,
              seed: 5,
            },
            {
              tool: 5,
              form: 0,
              seed: 9,
            },
          ],
        },
        {
          kind: 'malformed',
        },
        {
          kind: 'text',
          text: 'refund',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 0,
              seed: 5,
            },
            {
              tool: 4,
              form: 2,
              seed: 4,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 1,
      breaker: 2,
      guardrail: 'none',
      maxSteps: 5,
      temperature: 0.2,
    },
    {
      name: 'planner',
      instructions: 'Answer with the tools.',
      tools: [
        {
          name: 'planner_t0',
          schema: 'transform',
          outcomes: [
            {
              kind: 'value',
              value: 'null',
            },
          ],
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'Zürich 🚆',
        },
      ],
      modelAttempts: 3,
      toolRetries: 2,
      breaker: 4,
      guardrail: 'tool-warn',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 6,
            },
          ],
        },
        {
          kind: 'text',
          text: 'a "quoted" word',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 1,
              seed: 7,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 0,
              seed: 9,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 1,
              seed: 3,
            },
            {
              tool: 3,
              form: 1,
              seed: 9,
            },
          ],
        },
      ],
      maxSteps: 6,
      react: true,
    },
  ],
  input: 'Weather in Paris?',
  mode: 'run',
  abortAtCall: 2,
  rateLimit: 1,
  workflow: {
    items: 2,
    agentSteps: [
      {
        agent: 0,
        after: true,
      },
      {
        agent: 1,
        after: false,
      },
      {
        agent: 2,
        after: false,
      },
      {
        agent: 3,
        after: false,
      },
    ],
    forEach: {
      tool: {
        name: 'each_item',
        schema: 'default',
        outcomes: [
          {
            kind: 'value',
            value: 'bigint',
          },
          {
            kind: 'throw',
          },
          {
            kind: 'throw',
          },
        ],
        timeoutMs: 5,
      },
      retries: 0,
    },
  },
};

export const shape = foundShape(
  'generated: parallel workflow steps behind a rate limit, recorded on a stepping clock, stopped from outside',
  'test/conformance/found/workflow-rate-limit-stepping-clock.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
