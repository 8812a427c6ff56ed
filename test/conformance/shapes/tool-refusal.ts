/** A tool that refuses bad input with a tool error the model reads, and the model corrects itself. */
import { agent, toolError } from '@agent-trace/core';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
  everyChange,
  forkAnswering,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  const calculator = plantedTool(change, {
    name: 'calculator',
    description: 'Evaluates an arithmetic expression',
    input: z.object({ expression: z.string() }),
    execute: ({ expression }) => {
      if (!/^[\d\s+*/().-]+$/.test(expression))
        throw toolError(`Only arithmetic is allowed, not '${expression}'.`);
      return 4;
    },
  });
  const note = plantedTool(change, {
    name: 'note',
    description: 'Keeps a note',
    input: z.object({ text: z.string() }),
    execute: () => 'noted',
  });
  return agent({
    name: 'math',
    instructions: instructions(change, 'Compute with the calculator.'),
    model: script([
      { toolCalls: [{ name: 'calculator', args: { expression: "__import__('os')" } }] },
      { toolCalls: [{ name: 'calculator', args: { expression: '2 + 2' } }] },
      { text: '2 + 2 = 4' },
    ]),
    tools: plantedTools(change, 'note', [calculator, note]),
  });
}

export const shape: Shape = {
  name: 'tool refused with a tool error the model reads',
  module: 'test/conformance/shapes/tool-refusal.ts',
  record: file => recordRun(file, build(), 'What is 2 + 2?'),
  build,
  changes: everyChange('math', { changed: 'calculator', removed: 'note' }),
  fork: forkAnswering(1, 'I cannot.'),
  holds: events => {
    expect(events.some(e => e.event === 'tool_end' && e.error?.type === 'tool_error')).toBe(true);
    expect(events.some(e => e.event === 'retry')).toBe(false);
  },
};

export default build();
