/**
 * Found by the program generator. The cost limit's check of an answer (before its tools run) came, in the recording, after another step's answer was charged; the rerun checked first and ran the tools. Fixed: each turn's checks (before a model call, of its answer, of a round of tools) wait for the place they were decided in (decided_made).
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
          kind: 'malformed',
        },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      maxSteps: 2,
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
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  timeoutMs: 15,
  quota: 1,
  budget: {
    kind: 'run',
    usd: 0.05,
  },
  workflow: {
    items: 0,
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
  },
};

export const shape = foundShape(
  "generated: an agent's checks of its answer under a cost limit, after another step's answer",
  'test/conformance/found/answer-checks-after-other-answer.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
