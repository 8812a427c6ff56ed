/**
 * Found by the program generator. Parts of a workflow ran side by side on a virtual clock until the run's deadline. The deadline stopped one agent right after its answer, before its next step, while another part's answer (which came before the deadline) was written after it. The rerun replayed the stop only once that later answer was made, so the first agent went on to a step it never took: 'the model fails: script_exhausted'. A step the recorded turn never decided because the stop ended it now waits for the replayed stop.
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
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'preprocess',
          outcomes: [
            {
              kind: 'value',
              value: 'null',
            },
            {
              kind: 'value',
              value: 'nested',
            },
          ],
          timeoutMs: 37,
        },
      ],
      handoffs: [2],
      asTools: [3],
      script: [
        {
          kind: 'empty',
        },
        {
          kind: 'text',
          text: 'Paris',
        },
        {
          kind: 'malformed',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 2,
              seed: 2,
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
      toolRetries: 1,
      breaker: 4,
      guardrail: 'output-warn',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 4,
              form: 0,
              seed: 9,
            },
          ],
        },
      ],
      maxSteps: 3,
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
      guardrail: 'input-warn',
      maxSteps: 2,
    },
    {
      name: 'planner',
      instructions: 'Help.',
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'text',
          text: 'Paris',
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  timeoutMs: 15,
  quota: 1,
  workflow: {
    items: 1,
    agentSteps: [
      {
        agent: 1,
        after: false,
      },
      {
        agent: 2,
        after: false,
      },
    ],
    forEach: {
      tool: {
        name: 'each_item',
        schema: 'plain',
        outcomes: [
          {
            kind: 'value',
            value: 'big',
          },
        ],
      },
      retries: 0,
    },
  },
  clock: 'virtual',
};

export const shape = foundShape(
  "a run deadline that stopped one workflow part while another's answer was on its way (virtual clock)",
  'test/conformance/found/deadline-stops-one-workflow-part-between-answers.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
