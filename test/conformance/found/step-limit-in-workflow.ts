/**
 * Found by the program generator. P4: a lowered maxSteps diverged as a model call the rerun skipped, in no words naming the limit; an agent a limit stops now says which (agent 'desk' stops: max_steps (maxSteps 1)).
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
          kind: 'malformed',
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
  'generated: an agent stopped by its step limit in a workflow step',
  'test/conformance/found/step-limit-in-workflow.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
