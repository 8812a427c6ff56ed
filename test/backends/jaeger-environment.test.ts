/**
 * The export a program gets without changing its code (`node --import
 * @agent-trace/trace/register`, `TRACE_OTLP_ENDPOINT`), into a real Jaeger over OTLP gRPC and
 * HTTP: every span of the JSONL trace is there under the same parent, and the trace pulled back
 * with `agent-trace import --jaeger` reruns as the same.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TraceEvent } from '@agent-trace/core';
import { isJudgment } from '@agent-trace/core/spans';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { startJaeger, type Jaeger } from './support/jaeger.js';
import { readJaegerTrace } from './support/jaeger-trace.js';

const exec = promisify(execFile);

let jaeger: Jaeger;
beforeAll(async () => {
  jaeger = await startJaeger();
}, 600_000);
afterAll(() => jaeger?.stop());

describe.each(['grpc', 'http/protobuf'] as const)('node --import …/register, OTLP %s', protocol => {
  it('sends every span of the run to Jaeger, each under its parent; imported back, it reruns as the same', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-trace-registered-'));
    const file = join(folder, 'desk.jsonl');
    await exec(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        '@agent-trace/trace/register',
        'test/backends/fixtures/registered-desk.ts',
        file,
      ],
      {
        env: {
          ...process.env,
          TRACE_OTLP_ENDPOINT: protocol === 'grpc' ? jaeger.otlpGrpc : jaeger.otlpHttp,
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_SERVICE_NAME: 'registered-desk',
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
        },
      },
    );
    const events = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map(line => JSON.parse(line) as TraceEvent);
    const starts = events.filter(event => event.event.endsWith('_start') && !isJudgment(event));
    const stored = await readJaegerTrace(jaeger.query, events[0]!.trace_id, starts.length);
    const parents = new Map(
      stored?.spans.map(span => [
        span.spanID,
        span.references.find(reference => reference.refType === 'CHILD_OF')?.spanID ?? null,
      ]),
    );
    expect(new Map(starts.map(start => [start.span_id, start.parent_span_id]))).toEqual(parents);
    const service = Object.values(stored!.processes).map(process => process.serviceName);
    expect(service).toEqual(['registered-desk']);

    const out = join(folder, 'imported.jsonl');
    const id = events[0]!.trace_id;
    expect(
      (await cli(['import', '--jaeger', jaeger.query, '--trace-id', id, '--out', out])).code,
    ).toBe(0);
    const rerun = await cli(['rerun', out, '--agent', 'test/fixtures/agents/small-desk.ts']);
    expect(rerun.stdout).toContain('same behaviour: no divergence');
  });
});
