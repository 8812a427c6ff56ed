/**
 * Found by the program generator. P1: the other step began its next call before the replayed stop in the rerun, after it in the recording; a call past its recording now waits for the stop, and a part the stop met between calls is the same.
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
              kind: 'value',
              value: 'big',
            },
          ],
          timeoutMs: 5,
        },
        {
          name: 'desk_t1',
          schema: 'discriminated',
          outcomes: [
            {
              kind: 'refuse',
            },
            {
              kind: 'value',
              value: 'text',
            },
          ],
          timeoutMs: 7,
        },
        {
          name: 'desk_t2',
          schema: 'discriminated',
          outcomes: [
            {
              kind: 'value',
              value: 'nested',
            },
          ],
          timeoutMs: 24,
        },
      ],
      handoffs: [],
      asTools: [1],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 2,
              seed: 0,
            },
            {
              tool: 3,
              form: 2,
              seed: 0,
            },
          ],
        },
        {
          kind: 'empty',
        },
      ],
      modelAttempts: 3,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 0,
              seed: 2,
            },
            {
              tool: 1,
              form: 0,
              seed: 2,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 1,
              seed: 9,
            },
            {
              tool: 3,
              form: 1,
              seed: 3,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 0,
              seed: 1,
            },
            {
              tool: 0,
              form: 1,
              seed: 0,
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
        {
          kind: 'fault',
          status: 400,
        },
      ],
      maxSteps: 3,
    },
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'discriminated',
          outcomes: [
            {
              kind: 'value',
              value: 'nested',
            },
          ],
          timeoutMs: 22,
        },
        {
          name: 'billing_t1',
          schema: 'optional',
          outcomes: [
            {
              kind: 'slow',
              ms: 8,
            },
            {
              kind: 'throw',
            },
          ],
          timeoutMs: 14,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'Paris',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 0,
              seed: 2,
            },
            {
              tool: 5,
              form: 1,
              seed: 9,
            },
            {
              tool: 3,
              form: 1,
              seed: 3,
            },
          ],
        },
      ],
      modelAttempts: 3,
      toolRetries: 2,
      breaker: false,
      guardrail: 'tool-block',
      fallback: [
        {
          kind: 'fault',
          status: 429,
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 1,
              seed: 0,
            },
            {
              tool: 0,
              form: 1,
              seed: 4,
            },
            {
              tool: 5,
              form: 2,
              seed: 7,
            },
          ],
        },
      ],
      maxSteps: 4,
      structured: true,
    },
  ],
  input: 'Weather in Paris?',
  mode: 'stream',
  abortAtCall: 1,
  timeoutMs: 16,
  router: true,
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: true,
      },
      {
        agent: 1,
        after: false,
      },
    ],
    forEach: {
      tool: {
        name: 'each_item',
        schema: 'optional',
        outcomes: [
          {
            kind: 'value',
            value: 'nested',
          },
          {
            kind: 'value',
            value: 'text',
          },
          {
            kind: 'value',
            value: 'object',
          },
        ],
        timeoutMs: 38,
      },
      retries: 2,
    },
  },
};

export const shape = foundShape(
  'generated: a workflow stopped from outside while another step was between two model calls',
  'test/conformance/found/parallel-part-between-calls-at-stop.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
