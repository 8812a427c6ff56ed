/**
 * Found by the program generator. After an answer that could not be used as the final answer, the agent's checks of it came right before its next call; the rerun placed those checks at the turn's end, after the other steps' answers were charged, and the cost limit stopped the call the recording made. Fixed: a model call of a new step is the first event after the answer's checks.
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
      tools: [],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 0,
              seed: 1,
            },
            {
              tool: 1,
              form: 0,
              seed: 8,
            },
          ],
        },
        {
          kind: 'text',
          text: 'ok',
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
            {
              tool: 3,
              form: 1,
              seed: 4,
            },
          ],
        },
      ],
      modelAttempts: 2,
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
              seed: 0,
            },
            {
              tool: 1,
              form: 0,
              seed: 5,
            },
            {
              tool: 4,
              form: 1,
              seed: 0,
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
              tool: 5,
              form: 2,
              seed: 5,
            },
          ],
        },
      ],
      maxSteps: 8,
      structured: true,
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
      breaker: false,
      guardrail: 'none',
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
          kind: 'fault',
          status: 429,
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      fallback: [
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
      maxSteps: 2,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  budget: {
    kind: 'run',
    usd: 0.2,
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
  'generated: a structured answer asked again under a cost limit, beside other steps',
  'test/conformance/found/final-answer-retry-under-budget.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
