/**
 * A run stopped from outside while agents used as tools are still working: the writer asks the
 * researcher (who asks the archivist, who looks things up slowly) beside a slow tool of its own,
 * and the run's deadline passes mid-way. Every span the delegates opened still ends, and the
 * rerun stops where the recording stopped, making no model call the recording lacks.
 */
import { agent, type AnyTool } from '@agent-trace/core';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  after,
  everyChange,
  instructions,
  plantedTool,
  plantedTools,
  recordRun,
  script,
} from '../harness/plant.js';
import type { Change, Shape } from '../harness/shape.js';

/** The run's deadline: long before the slow tools answer. */
const timeoutMs = 80;

const lookup = (change?: Change): AnyTool =>
  plantedTool(change, {
    name: 'lookup',
    description: 'Looks a title up in the archive, slowly',
    input: z.object({ title: z.string(), ms: z.number() }),
    execute: ({ title, ms }) => after(ms, `${title}: shelf 4`),
  });

export function build(change?: Change) {
  const note = plantedTool(change, {
    name: 'note',
    description: 'Keeps a note',
    input: z.object({ text: z.string() }),
    execute: ({ text }) => `noted: ${text}`,
  });
  const archivist = agent({
    name: 'archivist',
    instructions: instructions(change, 'Look titles up.'),
    model: script([
      { toolCalls: [{ name: 'lookup', args: { title: 'Spans', ms: 20 } }] },
      { toolCalls: [{ name: 'lookup', args: { title: 'Traces', ms: 400 } }] },
      { text: 'Both are on shelf 4.' },
    ]),
    tools: plantedTools(change, 'note', [lookup(change), note]),
  });
  const researcher = agent({
    name: 'researcher',
    instructions: 'Ask the archivist.',
    model: script([
      {
        toolCalls: [
          { name: 'ask_archivist', args: { input: 'Where are Spans and Traces?' } },
          { name: 'lookup', args: { title: 'Logs', ms: 45 } },
        ],
      },
      { text: 'Shelf 4.' },
    ]),
    tools: [archivist.asTool(), lookup()],
  });
  return agent({
    name: 'writer',
    instructions: 'Ask the researcher, then write.',
    model: script([
      {
        toolCalls: [
          { name: 'ask_researcher', args: { input: 'Where is the archive on spans?' } },
          { name: 'lookup', args: { title: 'Metrics', ms: 500 } },
        ],
      },
      { text: 'The archive is on shelf 4.' },
    ]),
    tools: [researcher.asTool(), lookup()],
  });
}

export const shape: Shape = {
  name: 'a deadline while agents used as tools run beside a slow tool',
  module: 'test/conformance/shapes/delegate-stopped.ts',
  record: file => recordRun(file, build(), 'Where is the archive on spans?', { timeoutMs }),
  build,
  changes: everyChange('archivist', { changed: 'lookup', removed: 'note' }),
  runOptions: { timeoutMs },
  holds: events => {
    expect(events.at(-1)).toMatchObject({ event: 'run_end', stop_reason: 'timeout' });
    const asked = events.filter(e => e.event === 'handoff_start').map(e => e.agent);
    expect(asked).toEqual(['writer', 'researcher']);
  },
};

export default build();
