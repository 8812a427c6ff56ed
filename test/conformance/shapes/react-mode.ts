/** ReAct mode: tools asked for in Thought / Action / Action Input text, with one malformed answer. */
import { agent } from '@agent-trace/core';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
  everyChange,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

export function build(change?: Change) {
  const calculator = plantedTool(change, {
    name: 'calculator',
    description: 'Evaluates arithmetic',
    input: z.object({ expression: z.string() }),
    execute: () => 42,
  });
  const search = plantedTool(change, {
    name: 'search',
    description: 'Searches the web',
    input: z.object({ query: z.string() }),
    execute: () => 'nothing',
  });
  return agent({
    name: 'researcher',
    instructions: instructions(change, 'Answer questions.'),
    model: script([
      { text: 'Thought: I should compute.\nAction: calculator' },
      {
        text: 'Thought: I should compute.\nAction: calculator\nAction Input: {"expression": "6 * 7"}',
      },
      { text: 'Thought: I know it.\nFinal Answer: 42' },
    ]),
    tools: plantedTools(change, 'search', [calculator, search]),
    toolCalling: 'react',
  });
}

export const shape: Shape = {
  name: 'ReAct mode',
  module: 'test/conformance/shapes/react-mode.ts',
  record: file => recordRun(file, build(), 'What is 6 * 7?'),
  build,
  changes: everyChange('researcher', { changed: 'calculator', removed: 'search' }),
  fork: {
    afterStep: 2,
    model: () => script([{ text: 'Thought: done.\nFinal Answer: forty-two' }]),
    expect: report => expect(report.result).toMatchObject({ output: 'forty-two' }),
  },
  holds: events => expect(events.some(e => e.event === 'malformed_answer')).toBe(true),
};

export default build();
