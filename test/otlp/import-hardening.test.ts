/**
 * `agent-trace import` on spans as backends hand them over: ids that share a prefix, a root agent
 * that is not the first agent span in the file, a line cut short, a span whose parent is missing,
 * and error spans with an empty or repeated message.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importSpans, spansFromOtlpJson } from '@agent-trace/trace/import';
import { validateTrace } from '@agent-trace/trace';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

interface SpanSpec {
  trace: string;
  id: string;
  parent?: string;
  name: string;
  at: number;
  attributes?: Record<string, string>;
  error?: string;
}

/** One OTLP JSON line (an ExportTraceServiceRequest) holding `spans`. */
function line(spans: readonly SpanSpec[]): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'desk' } }] },
        scopeSpans: [
          {
            spans: spans.map(span => ({
              traceId: span.trace,
              spanId: span.id,
              ...(span.parent === undefined ? {} : { parentSpanId: span.parent }),
              name: span.name,
              startTimeUnixNano: String(span.at * 1e6),
              endTimeUnixNano: String((span.at + 5) * 1e6),
              attributes: Object.entries(span.attributes ?? {}).map(([key, value]) => ({
                key,
                value: { stringValue: value },
              })),
              ...(span.error === undefined ? {} : { status: { code: 2, message: span.error } }),
            })),
          },
        ],
      },
    ],
  });
}

const agentSpan = (trace: string, id: string, name: string, at: number, parent?: string) => ({
  trace,
  id,
  name: `invoke_agent ${name}`,
  at,
  attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': name },
  ...(parent === undefined ? {} : { parent }),
});

const folder = () => mkdtempSync(join(tmpdir(), 'agent-trace-import-'));

describe('importing spans as backends hand them over', () => {
  it('keeps traces whose ids share their first 16 hex digits apart: a run each, valid', () => {
    const prefix = '0190f2c3a4b5c6d7';
    const spans = spansFromOtlpJson(
      line([
        agentSpan(`${prefix}1111111111111111`, 'a000000000000001', 'desk', 1),
        agentSpan(`${prefix}2222222222222222`, 'b000000000000001', 'desk', 2),
      ]),
    );
    const { events, traces } = importSpans(spans);
    expect(traces).toHaveLength(2);
    expect(new Set(events.map(event => event.run)).size).toBe(2);
    expect(validateTrace(events).problems).toEqual([]);
  });

  it('names the run after its root agent, not the first agent span in the file', () => {
    const trace = 'c'.repeat(32);
    const spans = spansFromOtlpJson(
      line([
        agentSpan(trace, 'c000000000000002', 'researcher', 2, 'c000000000000001'),
        agentSpan(trace, 'c000000000000001', 'writer', 1),
      ]),
    );
    const { events } = importSpans(spans);
    expect(events.find(event => event.event === 'run_start')?.agent).toBe('writer');
  });

  it('imports the lines that are JSON, names the ones that are not, and refuses them with --strict', async () => {
    const dir = folder();
    const file = join(dir, 'spans.json');
    const good = line([agentSpan('d'.repeat(32), 'd000000000000001', 'desk', 1)]);
    writeFileSync(
      file,
      `${good}\n${good.slice(0, 40)}\n${line([agentSpan('e'.repeat(32), 'e000000000000001', 'desk', 3)])}\n`,
    );
    const out = join(dir, 'trace.jsonl');
    const lenient = await cli(['import', file, '--out', out]);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain('of 2 traces');
    expect(lenient.stderr).toContain('skipped 1 line of');
    expect(lenient.stderr).toContain('(line 2)');
    const strict = await cli(['import', file, '--out', out, '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(`${file}:2: not JSON`);
  });

  it('says which spans it put at the top of their trace because their parent is missing', async () => {
    const dir = folder();
    const file = join(dir, 'spans.json');
    writeFileSync(
      file,
      `${line([agentSpan('f'.repeat(32), 'f000000000000002', 'researcher', 2, 'f0000000000000ff')])}\n`,
    );
    const imported = await cli(['import', file, '--out', join(dir, 'trace.jsonl')]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(
      "1 span's parent is not in the input, so it is imported at the top of its trace: invoke_agent researcher (parent f0000000000000ff)",
    );
  });

  it('renders an error span with no message, or one that repeats its type, once and cleanly', async () => {
    const dir = folder();
    const file = join(dir, 'spans.json');
    const trace = '1'.repeat(32);
    writeFileSync(
      file,
      `${line([
        { ...agentSpan(trace, '1000000000000001', 'desk', 1), error: '' },
        {
          trace,
          id: '1000000000000002',
          parent: '1000000000000001',
          name: 'GET /orders',
          at: 2,
          error: 'error: upstream closed',
        },
      ])}\n`,
    );
    const out = join(dir, 'trace.jsonl');
    expect((await cli(['import', file, '--out', out])).code).toBe(0);
    const { stdout } = await cli(['replay', out], { NO_COLOR: '1' });
    expect(stdout).not.toMatch(/✗ \w+: *$/m);
    expect(stdout).toContain('✗ error: upstream closed');
    expect(stdout).not.toMatch(/error: error:/i);
    expect(stdout).toContain('error: error (no message)');
  });
});
