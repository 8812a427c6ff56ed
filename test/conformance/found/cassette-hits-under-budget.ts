/**
 * Found by the program generator. P1: the recorded answers were cache hits, which cost nothing; the rerun priced them and stopped for the budget before the second call.
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
  ],
  input: 'Help me with order 7',
  mode: 'run',
  timeoutMs: 15,
  router: true,
  budget: {
    kind: 'run',
    usd: 0.2,
  },
  cassette: true,
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
    ],
  },
};

export const shape = foundShape(
  'generated: a model answered from a cassette under a cost limit',
  'test/conformance/found/cassette-hits-under-budget.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
