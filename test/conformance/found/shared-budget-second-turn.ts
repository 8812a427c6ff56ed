/**
 * Found by the program generator. P1: rerun alone, the second turn started from a fresh budget (the module's), so it was not stopped; the stop now records what the budget's runs had spent (run_end.limit.spent).
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
      tools: [
        {
          name: 'desk_t0',
          schema: 'refine',
          outcomes: [
            {
              kind: 'value',
              value: 'nested',
            },
          ],
          timeoutMs: 25,
        },
        {
          name: 'desk_t1',
          schema: 'optional',
          outcomes: [
            {
              kind: 'throw-string',
            },
          ],
          timeoutMs: 26,
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
              seed: 0,
            },
            {
              tool: 3,
              form: 2,
              seed: 9,
            },
            {
              tool: 3,
              form: 1,
              seed: 0,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 2,
              seed: 0,
            },
            {
              tool: 2,
              form: 2,
              seed: 2,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 0,
              seed: 7,
            },
            {
              tool: 5,
              form: 1,
              seed: 5,
            },
            {
              tool: 0,
              form: 0,
              seed: 4,
            },
          ],
        },
      ],
      modelAttempts: 3,
      toolRetries: 2,
      breaker: false,
      guardrail: 'input-block',
      fallback: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 1,
              seed: 6,
            },
            {
              tool: 1,
              form: 0,
              seed: 8,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 5,
              form: 0,
              seed: 4,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 0,
              seed: 8,
            },
            {
              tool: 4,
              form: 0,
              seed: 0,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 2,
              form: 1,
              seed: 8,
            },
          ],
        },
        {
          kind: 'malformed',
        },
      ],
      maxSteps: 4,
      approval: 'edit',
      structured: true,
      temperature: 0.7,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  secondTurn: 'Thanks',
  router: true,
  budget: {
    kind: 'shared',
    usd: 0.5,
  },
};

export const shape = foundShape(
  "generated: a conversation's second turn stopped by a budget its turns share",
  'test/conformance/found/shared-budget-second-turn.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
