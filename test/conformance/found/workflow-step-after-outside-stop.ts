/**
 * Found by the program generator. P1: counted as the trace was written (a workflow writes its steps in order, later), the replayed stop came after the next step had started; it now counts events as they are made.
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
          schema: 'refine',
          outcomes: [
            {
              kind: 'refuse',
            },
            {
              kind: 'value',
              value: 'null',
            },
            {
              kind: 'throw',
            },
          ],
          timeoutMs: 30,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            {
              tool: 3,
              form: 0,
              seed: 2,
            },
            {
              tool: 1,
              form: 0,
              seed: 9,
            },
            {
              tool: 4,
              form: 1,
              seed: 1,
            },
          ],
        },
      ],
      modelAttempts: 2,
      toolRetries: 2,
      breaker: 1,
      guardrail: 'tool-warn',
      fallback: [
        {
          kind: 'malformed',
        },
        {
          kind: 'text',
          text: 'ok',
        },
        {
          kind: 'text',
          text: 'refund',
        },
      ],
      maxSteps: 8,
    },
  ],
  input: 'Help me with order 7',
  mode: 'stream',
  abortAtCall: 1,
  workflow: {
    items: 0,
    agentSteps: [
      {
        agent: 0,
        after: false,
      },
    ],
    forEach: {
      tool: {
        name: 'each_item',
        schema: 'default',
        outcomes: [
          {
            kind: 'slow',
            ms: 8,
          },
          {
            kind: 'throw',
          },
        ],
        timeoutMs: 10,
      },
      retries: 0,
    },
  },
};

export const shape = foundShape(
  "generated: a workflow stopped from outside just after a step's tool answered",
  'test/conformance/found/workflow-step-after-outside-stop.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
