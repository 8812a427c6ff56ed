/**
 * A real Jaeger v2, built from the Go module proxy, started on 127.0.0.1: every agent shape is
 * exported to it over OTLP gRPC and OTLP HTTP, read back from its HTTP query API (every span, the
 * same tree, the GenAI attributes, events and resource, errors marked), then pulled back with
 * `agent-trace import --jaeger`, validated and rerun against the same agent: *same*.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { exportShape } from './support/exported-shape.js';
import { startJaeger, type Jaeger } from './support/jaeger.js';
import { jaegerProblems, readJaegerTrace } from './support/jaeger-trace.js';
import { shapes } from './support/shapes.js';

let jaeger: Jaeger;
beforeAll(async () => {
  jaeger = await startJaeger();
}, 600_000);
afterAll(() => jaeger?.stop());

describe.each(['grpc', 'http'] as const)('Jaeger, over OTLP %s', protocol => {
  it.each(shapes)(
    '$name: every span, the same tree and attributes; imported back, it reruns as the same',
    async shape => {
      const endpoint = protocol === 'grpc' ? jaeger.otlpGrpc : jaeger.otlpHttp;
      const exported = await exportShape(shape.name, shape.record, { endpoint, protocol });
      expect(exported.sent.length).toBeGreaterThan(2);
      const stored = await readJaegerTrace(jaeger.query, exported.traceId, exported.sent.length);
      expect(jaegerProblems(exported.sent, stored)).toEqual([]);

      const out = join(mkdtempSync(join(tmpdir(), 'agent-trace-jaeger-import-')), 'run.jsonl');
      const imported = await cli([
        'import',
        '--jaeger',
        jaeger.query,
        '--trace-id',
        exported.traceId,
        '--out',
        out,
      ]);
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      expect((await cli(['validate', out])).code).toBe(0);
      const rerun = await cli(['rerun', out, '--agent', shape.module]);
      expect(rerun.stdout).toContain('same behaviour: no divergence');
      expect(rerun.code).toBe(0);
    },
    60_000,
  );
});
