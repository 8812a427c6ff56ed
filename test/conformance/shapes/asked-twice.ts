/**
 * What the rows of one agent asked twice at once share (a forecaster asks a researcher about two
 * cities in one answer): the scripts, the planted changes, and what the recording must hold.
 */
import { expect } from 'vitest';
import type { TraceEvent } from '@agent-trace/core';
import { everyChange, script } from '../harness/plant.js';
import type { Shape } from '../harness/shape.js';

/**
 * The forecaster asks `ask` twice at once (its argument named `argument`); the researcher's first
 * two answers go to the two calls in the order they ask, the last two to whichever weather lookup
 * came back first.
 */
export const askedTwiceScripts = (ask: string, argument: string) => ({
  forecaster: script([
    {
      toolCalls: [
        { name: ask, args: { [argument]: 'Oslo?' } },
        { name: ask, args: { [argument]: 'Rome?' } },
      ],
    },
    { text: 'Oslo is cold, Rome is mild.' },
  ]),
  researcher: script([
    { toolCalls: [{ name: 'weather', args: { city: 'Oslo' } }] },
    { toolCalls: [{ name: 'weather', args: { city: 'Rome' } }] },
    { text: 'First back: cold.' },
    { text: 'Second back: mild.' },
  ]),
});

/** The changes planted in the agent asked twice (`agent`) and its tool (`tool`). */
export const askedTwiceChanges = (agent: string, tool: string): Shape['changes'] =>
  everyChange(agent, { changed: tool, removed: tool });

/** The recording holds two runs of `agent`. */
export const askedTwice =
  (agent: string) =>
  (events: readonly TraceEvent[]): void =>
    expect(events.filter(e => e.event === 'agent_start' && e.agent === agent)).toHaveLength(2);
