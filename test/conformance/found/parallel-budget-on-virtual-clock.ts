/**
 * Found by the program generator. On a virtual clock every event of the run has the same time, so the rerun could not tell which part's answer was charged before another part's budget check, and a part the recording stopped made its call. Fixed: the trace keeps the order events were made in (made), and a rerun orders answers and steps by it.
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
      tools: [
        {
          name: 'desk_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'text',
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
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
    },
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'default',
          outcomes: [
            {
              kind: 'throw-string',
            },
          ],
          timeoutMs: 9,
        },
        {
          name: 'billing_t1',
          schema: 'default',
          outcomes: [
            {
              kind: 'slow',
              ms: 4,
            },
          ],
          timeoutMs: 11,
        },
      ],
      handoffs: [2, 3],
      asTools: [3],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 1,
              seed: 9,
            },
            {
              tool: 2,
              form: 1,
              seed: 8,
            },
          ],
        },
        {
          kind: 'text',
          text: 'refund',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 9,
            },
            {
              tool: 5,
              form: 0,
              seed: 2,
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
              form: 0,
              seed: 8,
            },
            {
              tool: 1,
              form: 0,
              seed: 8,
            },
            {
              tool: 1,
              form: 2,
              seed: 2,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 0,
              seed: 4,
            },
            {
              tool: 3,
              form: 0,
              seed: 4,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 3,
      guardrail: 'input-block',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 1,
              seed: 6,
            },
            {
              tool: 4,
              form: 0,
              seed: 9,
            },
            {
              tool: 0,
              form: 2,
              seed: 9,
            },
          ],
        },
        {
          kind: 'fault',
          status: 500,
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 1,
              seed: 7,
            },
            {
              tool: 4,
              form: 0,
              seed: 2,
            },
            {
              tool: 2,
              form: 0,
              seed: 9,
            },
          ],
        },
      ],
      maxSteps: 8,
      react: true,
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
    },
    {
      name: 'planner',
      instructions: 'Be brief.',
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 2,
            },
            {
              tool: 1,
              form: 1,
              seed: 4,
            },
          ],
        },
        {
          kind: 'malformed',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 1,
              seed: 3,
            },
            {
              tool: 2,
              form: 1,
              seed: 3,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 2,
              seed: 3,
            },
          ],
        },
        {
          kind: 'text',
          text: '注文',
        },
        {
          kind: 'text',
          text: '',
        },
      ],
      modelAttempts: 1,
      toolRetries: 1,
      breaker: false,
      guardrail: 'tool-warn',
      fallback: [
        {
          kind: 'malformed',
        },
        {
          kind: 'malformed',
        },
      ],
      maxSteps: 6,
      react: true,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  budget: {
    kind: 'run',
    usd: 2,
  },
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
      {
        agent: 1,
        after: true,
      },
      {
        agent: 2,
        after: false,
      },
      {
        agent: 3,
        after: true,
      },
    ],
  },
  clock: 'virtual',
};

export const shape = foundShape(
  'generated: parallel workflow steps under one cost limit, on a clock that never moves',
  'test/conformance/found/parallel-budget-on-virtual-clock.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
