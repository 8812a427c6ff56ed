/** A cached model: a cassette recorded once, then the run answered from it (cache hits, $0). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent } from '@agent-trace/core';
import { cachedModel } from '@agent-trace/core/cache';
import { cassette } from '@agent-trace/testing';
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

export function build(change?: Change, tape?: ReturnType<typeof cassette>) {
  const lookup = plantedTool(change, {
    name: 'lookup',
    description: 'Looks an order up',
    input: z.object({ order: z.number() }),
    execute: ({ order }) => ({ order, status: 'shipped' }),
  });
  const track = plantedTool(change, {
    name: 'track',
    description: 'Tracks a parcel',
    input: z.object({ order: z.number() }),
    execute: () => 'in transit',
  });
  const model = script([
    { toolCalls: [{ name: 'lookup', args: { order: 5 } }] },
    { text: 'Order 5 has shipped.' },
  ]);
  return agent({
    name: 'desk',
    instructions: instructions(change, 'Answer order questions.'),
    model: tape === undefined ? model : cachedModel(model, { cache: tape }),
    tools: plantedTools(change, 'track', [lookup, track]),
  });
}

export const shape: Shape = {
  name: 'cached (cassette) model',
  module: 'test/conformance/shapes/cassette-model.ts',
  record: async file => {
    const tape = join(mkdtempSync(join(tmpdir(), 'agent-trace-cassette-')), 'desk.jsonl');
    await recordRun(
      file + '.first',
      build(undefined, cassette(tape, { mode: 'record' })),
      'Order 5?',
    );
    await recordRun(file, build(undefined, cassette(tape, { mode: 'replay' })), 'Order 5?');
  },
  build: change => build(change),
  changes: everyChange('desk', { changed: 'lookup', removed: 'track' }),
  fork: forkAnswering(1, 'Shipped.'),
  holds: events =>
    expect(events.filter(e => e.event === 'llm_end' && e.cache_hit === true)).toHaveLength(2),
};

export default build();
