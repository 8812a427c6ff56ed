/**
 * Found by the program generator. P1: the tool's answer came before the caller's stop though it was written after it; the rerun stopped the run first and the step failed: aborted.
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
        {
          kind: 'empty',
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      maxSteps: 2,
      temperature: 0,
    },
    {
      name: 'billing',
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
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
      structured: true,
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
  abortAtCall: 1,
  rateLimit: 1,
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
      {
        agent: 3,
        after: false,
      },
    ],
  },
};

export const shape = foundShape(
  "generated: a workflow stopped from outside as a step's tool answered",
  'test/conformance/found/workflow-answer-before-outside-stop.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
