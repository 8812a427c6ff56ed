/**
 * Found by the program generator (seed 2). P4 (a raised tool quota): the quota's own word that
 * it was used up (`tool-quota.used_up`), written as the round that went past it was checked, comes
 * before the call it refused, which a tool guardrail also blocks. The first divergence is that
 * word, naming the quota; the generator's check now takes it as where the change first shows.
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
              kind: 'value',
              value: 'text',
            },
          ],
        },
        {
          name: 'desk_t1',
          schema: 'plain',
          outcomes: [
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
              tool: 0,
              form: 0,
              seed: 0,
            },
            {
              tool: 0,
              form: 0,
              seed: 0,
            },
          ],
        },
        {
          kind: 'calls',
          calls: [
            {
              tool: 1,
              form: 0,
              seed: 0,
            },
            {
              tool: 1,
              form: 0,
              seed: 1,
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
      guardrail: 'tool-block',
      maxSteps: 2,
      approval: 'approve',
      structured: true,
      temperature: 0,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  quota: 1,
  clock: 'virtual',
};

export const shape = foundShape(
  'generated: a quota used up beside a tool guardrail block',
  'test/conformance/found/quota-used-up-before-guardrail-block.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
