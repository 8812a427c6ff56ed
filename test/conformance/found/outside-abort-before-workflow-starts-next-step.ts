/**
 * Found by the program generator. The caller aborted as the entry agent asked its model, while the workflow's first step (a tool) was ending; the recorded workflow then started nothing more. The rerun let the workflow run ahead of the agents, whose steps were paced, and started the next step ('each') before the replayed stop. A run now records where the stop came (run_end.stopped_made), a rerun stops there, and a workflow's steps are paced like agents' steps (one the recording never started waits for the stop).
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
      breaker: 1,
      guardrail: 'input-warn',
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
      breaker: 1,
      guardrail: 'none',
      maxSteps: 2,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  abortAtCall: 1,
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
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
            kind: 'throw',
          },
        ],
      },
      retries: 0,
    },
  },
  clock: 'virtual',
};

export const shape = foundShape(
  "a caller's abort while a workflow's first step ends, on a virtual clock",
  'test/conformance/found/outside-abort-before-workflow-starts-next-step.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
