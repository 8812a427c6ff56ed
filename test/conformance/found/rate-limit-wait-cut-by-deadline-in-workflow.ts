/**
 * Found by the program generator. Three agents ran as workflow steps sharing a limit of two calls a minute, with a 15 ms deadline. The deadline cut the planner's 60 s wait while billing went on; the rerun's clock ended that wait first (its end came before billing's recorded answer), and the planner made a call the recording does not have. A wait the recorded stop cut now ends only with the replayed stop.
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
    {
      name: 'billing',
      instructions: 'Help.',
      tools: [
        {
          name: 'billing_t0',
          schema: 'plain',
          outcomes: [
            {
              kind: 'slow',
              ms: 1,
            },
          ],
        },
        {
          name: 'billing_t1',
          schema: 'plain',
          outcomes: [
            {
              kind: 'value',
              value: 'big',
            },
            {
              kind: 'slow',
              ms: 1,
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
      name: 'advisor',
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
        {
          kind: 'empty',
        },
      ],
      modelAttempts: 2,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      maxSteps: 2,
      structured: true,
      temperature: 0,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  timeoutMs: 15,
  rateLimit: 2,
  cassette: true,
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
      {
        agent: 1,
        after: true,
      },
      {
        agent: 3,
        after: false,
      },
    ],
  },
};

export const shape = foundShape(
  "a workflow's parts sharing a rate limit, one part's wait cut by the run's deadline",
  'test/conformance/found/rate-limit-wait-cut-by-deadline-in-workflow.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
