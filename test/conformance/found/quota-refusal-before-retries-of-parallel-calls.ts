/**
 * Found by the program generator (seed 1). P4: a raised tool quota runs a parallel call the
 * recording refused; both calls then fail, so the breaker refuses their retries. The comparison
 * read one answer's calls call by call, a call's retry before the next call's first attempt, so
 * the first divergence was the retry's `circuit_open`, not the refusal that changed. It now reads
 * them round by round, as the loop runs them.
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

export const program: Program = {
  agents: [
    {
      name: 'desk',
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
      react: true,
    },
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'throw',
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
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
      ],
      modelAttempts: 1,
      toolRetries: 1,
      breaker: 2,
      guardrail: 'none',
      maxSteps: 2,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  quota: 1,
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
  forkAfter: 2,
};

export const shape = foundShape(
  'generated: a quota refusal beside parallel calls whose retries a breaker refuses',
  'test/conformance/found/quota-refusal-before-retries-of-parallel-calls.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
