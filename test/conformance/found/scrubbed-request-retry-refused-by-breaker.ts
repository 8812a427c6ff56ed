/**
 * Found by the program generator. A user's feature wraps the models and scrubs tool messages. A retry the breaker refused was never sent, so its llm_start held the loop's request; with the breaker's threshold raised the retry was sent, scrubbed, and the first divergence was that request, not the refusal. A refused attempt's request is no longer compared: its refusal is what it did.
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
      tools: [
        {
          name: 'desk_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'slow',
              ms: 1,
            },
          ],
        },
        {
          name: 'desk_t1',
          schema: 'plain',
          outcomes: [
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
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
        {
          kind: 'fault',
          status: 429,
        },
      ],
      modelAttempts: 2,
      toolRetries: 0,
      breaker: 1,
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
      breaker: false,
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
          kind: 'fault',
          status: 429,
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
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
      structured: true,
      react: true,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  scrub: true,
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
    ],
  },
  clock: 'virtual',
};

export const shape = foundShape(
  "a model wrapper's scrub, and a retry the breaker refused",
  'test/conformance/found/scrubbed-request-retry-refused-by-breaker.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
