/**
 * Found by the program generator. P1: the reader stopping replayed as an error and the zod default missed the recording.
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
      handoffs: [1],
      asTools: [],
      script: [{ kind: 'calls', calls: [{ tool: 0, form: 0, seed: 0 }] }],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      maxSteps: 3,
    },
    {
      name: 'billing',
      instructions: 'Be brief.',
      tools: [
        { name: 'billing_t0', schema: 'default', outcomes: [{ kind: 'value', value: 'date' }] },
      ],
      handoffs: [],
      asTools: [],
      script: [
        { kind: 'calls', calls: [{ tool: 0, form: 1, seed: 1 }] },
        { kind: 'text', text: 'refund' },
      ],
      modelAttempts: 1,
      toolRetries: 0,
      breaker: false,
      guardrail: 'none',
      maxSteps: 3,
    },
  ],
  input: 'Help me with order 7',
  mode: 'stream',
  stopReadingAfter: 3,
  timeoutMs: 40,
};

export const shape = foundShape(
  'generated: a stream whose reader stops after a handoff, a zod default, a Date result, under a deadline',
  'test/conformance/found/stream-reader-stops-in-handoff.ts',
  program,
);
export const runOptions = programRunOptions(program);
export default buildProgram(program);
