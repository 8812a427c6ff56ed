/** An agent used as a tool: the writer asks the researcher, who looks something up. */
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
  const search = plantedTool(change, {
    name: 'search',
    description: 'Searches the archive',
    input: z.object({ query: z.string() }),
    execute: ({ query }) => `3 documents about ${query}`,
  });
  const cite = plantedTool(change, {
    name: 'cite',
    description: 'Formats a citation',
    input: z.object({ title: z.string() }),
    execute: ({ title }) => `[1] ${title}`,
  });
  const researcher = agent({
    name: 'researcher',
    instructions: instructions(change, 'Search, then summarise.'),
    model: script([
      { toolCalls: [{ name: 'search', args: { query: 'GenAI spans' } }] },
      { text: 'The OTel GenAI conventions define them.' },
    ]),
    tools: plantedTools(change, 'cite', [search, cite]),
  });
  return agent({
    name: 'writer',
    instructions: 'Ask the researcher, then write.',
    model: script([
      { toolCalls: [{ name: 'ask_researcher', args: { input: 'What defines GenAI spans?' } }] },
      { text: 'GenAI spans are defined by the OTel conventions.' },
    ]),
    tools: [researcher.asTool()],
  });
}

export const shape: Shape = {
  name: 'agent as tool',
  module: 'test/conformance/shapes/agent-as-tool.ts',
  record: file => recordRun(file, build(), 'Write a sentence on GenAI spans'),
  build,
  changes: everyChange('researcher', { changed: 'search', removed: 'cite' }),
  fork: {
    afterStep: 2,
    model: () => script([{ text: 'Nothing found.' }]),
    expect: report => expect(report.reproduced).toBe(true),
  },
  holds: events =>
    expect(events.some(e => e.event === 'handoff_start' && e.mode === 'return_to_caller')).toBe(
      true,
    ),
};

export default build();
