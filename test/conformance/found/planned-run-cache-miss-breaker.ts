/**
 * Found by the program generator. P1: a recorded cache miss (not a model's failure, so no breaker counted it) was replayed as a model failure; the breaker counted it and refused the agent's call in the next plan. Recorded failures that are not a model's are thrown again as what they were.
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

const program: Program = {
  agents: [
    {
      name: 'desk',
      instructions: 'Be brief.',
      tools: [],
      handoffs: [1, 2, 3],
      asTools: [2, 3],
      script: [
        {
          kind: 'fault',
          status: 429,
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 2,
              seed: 7,
            },
            {
              tool: 1,
              form: 1,
              seed: 5,
            },
          ],
        },
        {
          kind: 'text',
          text: 'a "quoted" word',
        },
      ],
      modelAttempts: 2,
      toolRetries: 1,
      breaker: 1,
      guardrail: 'tool-warn',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 1,
              seed: 2,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 1,
              seed: 4,
            },
            {
              tool: 0,
              form: 0,
              seed: 7,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 2,
              seed: 9,
            },
            {
              tool: 4,
              form: 0,
              seed: 8,
            },
            {
              tool: 2,
              form: 1,
              seed: 2,
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
              tool: 3,
              form: 0,
              seed: 4,
            },
            {
              tool: 3,
              form: 1,
              seed: 7,
            },
            {
              tool: 4,
              form: 2,
              seed: 9,
            },
          ],
        },
      ],
      maxSteps: 4,
      temperature: 0,
    },
    {
      name: 'billing',
      instructions: 'Be brief.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'transform',
          outcomes: [
            {
              kind: 'slow',
              ms: 24,
            },
            {
              kind: 'slow',
              ms: 8,
            },
          ],
          timeoutMs: 24,
        },
        {
          name: 'billing_t1',
          schema: 'refine',
          outcomes: [
            {
              kind: 'throw',
            },
            {
              kind: 'throw-string',
            },
          ],
        },
        {
          name: 'billing_t2',
          schema: 'optional',
          outcomes: [
            {
              kind: 'value',
              value: 'number',
            },
            {
              kind: 'throw',
            },
          ],
          timeoutMs: 38,
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
              seed: 8,
            },
            {
              tool: 5,
              form: 1,
              seed: 3,
            },
            {
              tool: 2,
              form: 2,
              seed: 7,
            },
          ],
        },
        {
          kind: 'empty',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 0,
              seed: 4,
            },
          ],
        },
      ],
      modelAttempts: 2,
      toolRetries: 0,
      breaker: 3,
      guardrail: 'tool-warn',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 0,
              seed: 9,
            },
            {
              tool: 2,
              form: 0,
              seed: 4,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 1,
              seed: 9,
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
    },
    {
      name: 'advisor',
      instructions: 'Answer with the tools.',
      tools: [
        {
          name: 'advisor_t0',
          schema: 'preprocess',
          outcomes: [
            {
              kind: 'value',
              value: 'null',
            },
            {
              kind: 'refuse',
            },
            {
              kind: 'throw',
            },
          ],
          timeoutMs: 27,
        },
        {
          name: 'advisor_t1',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'number',
            },
            {
              kind: 'value',
              value: 'number',
            },
          ],
          timeoutMs: 36,
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
              form: 1,
              seed: 4,
            },
            {
              tool: 0,
              form: 0,
              seed: 6,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 2,
      breaker: 1,
      guardrail: 'input-warn',
      fallback: [
        {
          kind: 'text',
          text: '注文',
        },
      ],
      maxSteps: 2,
    },
    {
      name: 'planner',
      instructions: 'Be brief.',
      tools: [
        {
          name: 'planner_t0',
          schema: 'preprocess',
          outcomes: [
            {
              kind: 'value',
              value: 'unicode',
            },
            {
              kind: 'throw',
            },
            {
              kind: 'throw-string',
            },
          ],
          timeoutMs: 9,
        },
        {
          name: 'planner_t1',
          schema: 'union',
          outcomes: [
            {
              kind: 'value',
              value: 'nested',
            },
            {
              kind: 'throw',
            },
            {
              kind: 'throw-string',
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
              tool: 1,
              form: 0,
              seed: 4,
            },
            {
              tool: 0,
              form: 2,
              seed: 2,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 2,
              seed: 5,
            },
            {
              tool: 3,
              form: 0,
              seed: 5,
            },
          ],
        },
      ],
      modelAttempts: 3,
      toolRetries: 2,
      breaker: 4,
      guardrail: 'input-warn',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 5,
            },
            {
              tool: 2,
              form: 1,
              seed: 9,
            },
            {
              tool: 0,
              form: 0,
              seed: 1,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 0,
              seed: 8,
            },
            {
              tool: 1,
              form: 2,
              seed: 5,
            },
            {
              tool: 3,
              form: 2,
              seed: 7,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 1,
              seed: 5,
            },
            {
              tool: 0,
              form: 1,
              seed: 6,
            },
            {
              tool: 1,
              form: 1,
              seed: 6,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 0,
              seed: 2,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 4,
            },
          ],
        },
      ],
      maxSteps: 8,
    },
  ],
  input: 'こんにちは',
  mode: 'run',
  quota: 2,
  cassette: true,
  plan: {
    refusedFirst: false,
    failing: false,
  },
};

export const shape = foundShape(
  "generated: a planned run whose agent's cassette misses, under a model breaker",
  'test/conformance/found/planned-run-cache-miss-breaker.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
