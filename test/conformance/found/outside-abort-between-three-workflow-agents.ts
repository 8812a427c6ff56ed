/**
 * Found by the program generator. Three agents ran as steps beside a tool step that gives no items; the caller aborted at the entry's first model call. The rerun started the workflow's next step ('each') before the stop it replayed, which the recorded workflow never did.
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
      breaker: false,
      guardrail: 'none',
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
          kind: 'empty',
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
  abortAtCall: 1,
  scrub: true,
  budget: {
    kind: 'run',
    usd: 0.05,
  },
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
            kind: 'slow',
            ms: 1,
          },
        ],
      },
      retries: 0,
    },
  },
};

export const shape = foundShape(
  "a caller's abort among three agent steps and a tool step of a workflow (stepping clock)",
  'test/conformance/found/outside-abort-between-three-workflow-agents.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
