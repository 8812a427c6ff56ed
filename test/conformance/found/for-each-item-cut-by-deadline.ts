/**
 * Found by the program generator. A for_each step stopped by the run's deadline wrote none of its items' events (its views were committed only when every item succeeded), so the rerun ran the item's tool where the recording had nothing. Fixed: the items all settle and are written, a cut one with its aborted tool call.
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
  ],
  input: 'Help me with order 7',
  mode: 'run',
  timeoutMs: 15,
  router: true,
  workflow: {
    items: 1,
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
    forEach: {
      tool: {
        name: 'each_item',
        schema: 'plain',
        outcomes: [
          {
            kind: 'slow',
            ms: 13,
          },
        ],
      },
      retries: 0,
    },
  },
};

export const shape = foundShape(
  "generated: a for_each step's item cut by the run's deadline, beside agent steps",
  'test/conformance/found/for-each-item-cut-by-deadline.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
