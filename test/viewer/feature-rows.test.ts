// A feature's own events and transforms, and its refusals, as the viewer's rows show them.
import { run } from '@agent-trace/core';
import { memorySink } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { desk, features } from '../../examples/features/desk.js';
import { buildRuns, type RunModel } from '../../packages/viewer/app/model/run-model.js';
import type { ListRows } from '../../packages/viewer/app/model/run-rows.js';

const rowsOf = (model: RunModel | undefined) => (model!.rows as ListRows).list;

describe("the viewer's rows of a run with features of a user's own", () => {
  it('shows their events, their transforms and their refusals in their own words', async () => {
    const trace = memorySink();
    await run(desk(), 'What are customer 7’s open orders?', { features, trace });
    const rows = rowsOf(buildRuns(trace.events)[0]);
    const own = rows.filter(row => row.kind === 'feature');
    expect(own.map(row => row.title)).toEqual(['scrub-emails.scrubbed', 'tool-quota.used_up']);
    expect(own[0]!.summary).toBe('scrub-emails.scrubbed {"addresses":1,"tool":"customer"}');
    const transforms = rows.filter(row => row.kind === 'transform');
    expect(transforms.map(row => row.title)).toEqual([
      'transform by date-note',
      'transform by scrub-emails',
      'transform by date-note',
      'transform by date-note',
    ]);
    expect(transforms[1]!.summary).toMatch(
      /^feature 'scrub-emails' changed what the model reads of tool 'customer' to .*\[email removed\]/,
    );
    const refused = rows.filter(row => row.kind === 'tool' && row.status === 'error');
    expect(refused.map(row => row.summary)).toEqual([
      "✗ refused by feature 'tool-quota' (quota_exceeded): 'orders' may be called 2 times a run; answer with what you have.",
    ]);
  });
});
