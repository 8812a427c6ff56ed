/**
 * The export a program gets without changing its code (`node --import
 * @agent-trace/trace/register`, `TRACE_OTLP_ENDPOINT`), into a real Jaeger over OTLP gRPC and
 * HTTP: every span of the JSONL trace is there under the same parent, and the trace pulled back
 * with `agent-trace import --jaeger` reruns as the same. The same round trip for a program whose
 * spans go through the application's own OpenTelemetry SDK (`otelSink()`, `NodeSDK` started with
 * `node --import`).
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

/** Runs `program` in its own process (after `imports`), its JSONL trace to a file; its events. */
async function runProgram(
  program: string,
  imports: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ folder: string; events: TraceEvent[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-program-'));
  const file = join(folder, 'desk.jsonl');
  const flags = ['tsx', ...imports].flatMap(module => ['--import', module]);
  await exec(process.execPath, [...flags, program, file], { env: { ...process.env, ...env } });
  const events = readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map(line => JSON.parse(line) as TraceEvent);
  return { folder, events };
}

/** Pulls the trace back from Jaeger with `agent-trace import --jaeger` and reruns it. */
async function expectRerunsAsSame(folder: string, traceId: string): Promise<void> {
  const out = join(folder, 'imported.jsonl');
  const imported = await cli([
    'import',
    '--jaeger',
    jaeger.query,
    '--trace-id',
    traceId,
    '--out',
    out,
  ]);
  expect(imported.code).toBe(0);
  expect((await cli(['validate', out])).code).toBe(0);
  const rerun = await cli(['rerun', out, '--agent', 'test/fixtures/agents/small-desk.ts']);
  expect(rerun.stdout).toContain('same behaviour: no divergence');
}

describe.each(['grpc', 'http/protobuf'] as const)(
  "the application's own SDK, OTLP %s",
  protocol => {
    it('otelSink sends every span of the run to Jaeger as a tree; imported back, it reruns as the same', async () => {
      const { folder, events } = await runProgram(
        'test/backends/fixtures/sdk-desk.ts',
        ['./test/backends/fixtures/app-sdk.ts'],
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: protocol === 'grpc' ? jaeger.otlpGrpc : jaeger.otlpHttp,
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_SERVICE_NAME: 'sdk-desk',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
        },
      );
      // The run takes the SDK's trace id; its spans are the SDK's own, made as the run goes.
      const starts = events.filter(event => event.event.endsWith('_start') && !isJudgment(event));
      const stored = await readJaegerTrace(jaeger.query, events[0]!.trace_id, starts.length);
      expect(stored?.spans).toHaveLength(starts.length);
      const ids = new Set(stored!.spans.map(span => span.spanID));
      const roots = stored!.spans.filter(
        span => !span.references.some(reference => ids.has(reference.spanID)),
      );
      expect(roots.map(span => span.operationName)).toEqual(['invoke_workflow triage']);
      const service = Object.values(stored!.processes).map(process => process.serviceName);
      expect(service).toEqual(['sdk-desk']);
      await expectRerunsAsSame(folder, events[0]!.trace_id);
    });
  },
);

describe.each(['grpc', 'http/protobuf'] as const)('node --import …/register, OTLP %s', protocol => {
  it('sends every span of the run to Jaeger, each under its parent; imported back, it reruns as the same', async () => {
    const { folder, events } = await runProgram(
      'test/backends/fixtures/registered-desk.ts',
      ['@agent-trace/trace/register'],
      {
        TRACE_OTLP_ENDPOINT: protocol === 'grpc' ? jaeger.otlpGrpc : jaeger.otlpHttp,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_SERVICE_NAME: 'registered-desk',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      },
    );
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
    await expectRerunsAsSame(folder, events[0]!.trace_id);
  });
});
