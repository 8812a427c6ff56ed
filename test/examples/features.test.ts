/**
 * The example features (examples/features/), run as a user runs them: the scrub keeps e-mail
 * addresses out of every request and the trace names it, a rerun with another mask diverges at
 * the transform, the quota refuses in its own name and kind, and a feature's own events and
 * transforms reach replay's lines, SQL and OTLP.
 */
import { run, type TraceEvent } from '@agent-trace/core';
import { standardFeatures } from '@agent-trace/core/features';
import { fakeLLM } from '@agent-trace/testing';
import { memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { TraceLibrary } from '@agent-trace/trace/library';
import { SpanBuilder } from '@agent-trace/trace/otlp';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateNote } from '../../examples/features/date-note.js';
import { desk, features } from '../../examples/features/desk.js';
import { scrubEmails } from '../../examples/features/scrub-emails.js';
import { toolQuota } from '../../examples/features/tool-quota.js';

/** A run of the desk with the example features, its events. */
async function recorded(): Promise<TraceEvent[]> {
  const trace = memorySink();
  await run(desk(), 'What are customer 7’s open orders?', { features, trace });
  return trace.events;
}

/** The desk again, its model answering only from a recording. */
const replayed = () => desk(fakeLLM([], { allowUnusedSteps: true }));

describe('the example features', () => {
  it('keeps every e-mail address out of what the model was sent, and says who changed it', async () => {
    const events = await recorded();
    expect(validateTrace(events).valid).toBe(true);
    for (const start of events.filter(event => event.event === 'llm_start'))
      expect(JSON.stringify(start)).not.toMatch(/@example\.com/);
    // The tool's own result keeps the address; the transform names the feature and what it read.
    expect(events.find(event => event.event === 'tool_end')).toMatchObject({
      result: { email: 'ana.lima@example.com' },
    });
    expect(
      events.find(event => event.event === 'transform' && event.target === 'tool_result'),
    ).toMatchObject({ feature: 'scrub-emails', tool: 'customer', changed: ['content'] });
    expect(
      events.find(event => event.event === 'feature' && event.feature === 'scrub-emails'),
    ).toMatchObject({ name: 'scrubbed', data: { tool: 'customer', addresses: 1 } });
    // The date note changed every request's instructions, and llm_start records them as sent.
    const notes = events.filter(event => event.event === 'transform' && event.target === 'request');
    expect(notes.map(event => event.event === 'transform' && event.feature)).toEqual([
      'date-note',
      'date-note',
      'date-note',
    ]);
  });

  it('reruns as the same with the same features; another mask diverges at the transform, naming it', async () => {
    const events = await recorded();
    const same = await rerunTrace(events, replayed(), { run: { features } });
    expect(same.same).toBe(true);
    const masked = [...standardFeatures, dateNote(), scrubEmails('<hidden>'), toolQuota(2)];
    const other = await rerunTrace(events, replayed(), { run: { features: masked } });
    expect(other.same).toBe(false);
    expect(other.firstDivergence?.expected).toMatch(
      /^feature 'scrub-emails' changed what the model reads of tool 'customer' to .*\[email removed\]/,
    );
    expect(other.firstDivergence?.actual).toMatch(/<hidden>/);
    // Without the date note, the request of the first model call changed: its instructions.
    const noNote = [...standardFeatures, scrubEmails(), toolQuota(2)];
    const unnoted = await rerunTrace(events, replayed(), { run: { features: noNote } });
    expect(unnoted.firstDivergence?.expected).toMatch(/^feature 'date-note' changed the request/);
  });

  it("refuses the call past the quota in the quota's own name and kind", async () => {
    const trace = memorySink();
    const result = await run(desk(), 'What are customer 7’s open orders?', { features, trace });
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls.map(call => [call.toolName, call.error])).toEqual([
      ['customer', undefined],
      ['orders', undefined],
      ['orders', undefined],
      ['orders', "'orders' may be called 2 times a run; answer with what you have."],
    ]);
    const refused = trace.events.filter(event => event.event === 'tool_end').at(-1);
    expect(refused).toMatchObject({
      error: { type: 'refused', feature: 'tool-quota', refusal: 'quota_exceeded' },
    });
    expect(
      trace.events.find(event => event.event === 'feature' && event.name === 'used_up'),
    ).toMatchObject({ feature: 'tool-quota', data: { tool: 'orders', quota: 2 } });
    // A higher quota is decided again by the rerun: the recorded refusal is not replayed.
    const raised = [...standardFeatures, dateNote(), scrubEmails(), toolQuota(3)];
    const rerun = await rerunTrace(trace.events, replayed(), { run: { features: raised } });
    expect(rerun.firstDivergence?.expected).toBe(
      "tool 'orders' fails: refused by feature 'tool-quota' (quota_exceeded)",
    );
  });

  it("puts a feature's own events, transforms and refusals in SQL and OTLP", async () => {
    const events = await recorded();
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-features-'));
    try {
      writeFileSync(
        join(folder, 'desk.jsonl'),
        events.map(event => JSON.stringify(event)).join('\n') + '\n',
      );
      const library = new TraceLibrary(folder);
      await library.update();
      const { rows } = await library.query(
        'SELECT feature, kind, name, data FROM feature_events ORDER BY seq',
      );
      expect(rows).toContainEqual({
        feature: 'scrub-emails',
        kind: 'feature',
        name: 'scrubbed',
        data: '{"tool":"customer","addresses":1}',
      });
      expect(rows).toContainEqual(
        expect.objectContaining({
          feature: 'scrub-emails',
          kind: 'transform',
          name: 'tool_result',
        }),
      );
      const refused = await library.query(
        'SELECT tool, error_type, refused_by, refusal FROM tool_calls WHERE error_type IS NOT NULL',
      );
      expect(refused.rows).toEqual([
        {
          tool: 'orders',
          error_type: 'refused',
          refused_by: 'tool-quota',
          refusal: 'quota_exceeded',
        },
      ]);
      await library.settled();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const builder = new SpanBuilder({
      captureContent: false,
      maxAttributeLength: 65_536,
      resource: resourceFromAttributes({ 'service.name': 'features' }),
    });
    const spans = events.flatMap(event => builder.accept(event) ?? []);
    const agentSpan = spans.find(span => span.name.startsWith('invoke_agent'));
    const names = agentSpan?.events.map(event => event.name) ?? [];
    expect(names).toContain('scrub-emails.scrubbed');
    expect(names).toContain('agent_trace.transform');
    const transform = agentSpan?.events.find(event => event.name === 'agent_trace.transform');
    expect(transform?.attributes?.['agent_trace.transform.content']).toBeUndefined();
    const refusedSpan = spans.find(span => span.attributes['error.type'] === 'refused');
    expect(refusedSpan?.attributes).toMatchObject({
      'agent_trace.refusal.feature': 'tool-quota',
      'agent_trace.refusal.kind': 'quota_exceeded',
    });
  });
});
