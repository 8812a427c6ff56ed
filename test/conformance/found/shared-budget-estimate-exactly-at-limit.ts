/**
 * Found by the program generator. A shared budget of $0.05 let the desk's first call go (its estimate was $0.05, not past the limit), and the answer's $0.07 stopped the run. The rerun started the budget a hair past what the runs before had spent (1e-9, to be past the limit after the answer), and that hair refused the first call. The hair is now added only when the recorded spend does not already put the budget past its limit.
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
      handoffs: [1],
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
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
      temperature: 0,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  timeoutMs: 15,
  quota: 1,
  router: true,
  rateLimit: 1,
  budget: {
    kind: 'shared',
    usd: 0.05,
  },
  forkAfter: 2,
};

export const shape = foundShape(
  "a shared budget whose first call's estimate is exactly its limit, stopped after that answer",
  'test/conformance/found/shared-budget-estimate-exactly-at-limit.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
