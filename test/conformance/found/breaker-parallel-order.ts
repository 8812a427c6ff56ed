/**
 * Found by the program generator. P1: the rerun handed out recorded results in call order, not in the order they came, so the breaker decided otherwise.
 */
import { buildProgram } from '../generator/build-program.js';
import { programRunOptions } from '../generator/program-options.js';
import type { Program } from '../generator/program.js';
import { foundShape } from '../harness/found-shape.js';

const program: Program = {
  agents: [
    {
      name: 'desk',
      instructions: 'Answer with the tools.',
      tools: [
        {
          name: 'desk_t0',
          schema: 'optional',
          outcomes: [
            { kind: 'slow', ms: 14 },
            { kind: 'value', value: 'undefined' },
            { kind: 'slow', ms: 3 },
          ],
          timeoutMs: 9,
        },
      ],
      handoffs: [],
      asTools: [],
      script: [
        {
          kind: 'calls',
          calls: [
            { tool: 4, form: 1, seed: 2 },
            { tool: 0, form: 0, seed: 0 },
            { tool: 0, form: 0, seed: 1 },
          ],
        },
        {
          kind: 'calls',
          calls: [
            { tool: 1, form: 1, seed: 3 },
            { tool: 5, form: 0, seed: 9 },
          ],
        },
        { kind: 'text', text: 'ok' },
        {
          kind: 'calls',
          calls: [
            { tool: 2, form: 0, seed: 0 },
            { tool: 2, form: 2, seed: 2 },
            { tool: 1, form: 2, seed: 1 },
          ],
        },
      ],
      modelAttempts: 3,
      toolRetries: 2,
      breaker: 1,
      guardrail: 'tool-warn',
      maxSteps: 4,
    },
  ],
  input: 'Help me with order 7',
  mode: 'run',
  abortAtCall: 4,
  secondTurn: 'And then?',
};

export const shape = foundShape(
  'generated: parallel calls of one tool, the slower times out and opens a breaker after the faster succeeded; a second turn',
  'test/conformance/found/breaker-parallel-order.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
