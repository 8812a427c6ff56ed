import { run } from '@agent-trace/core';
import { otlpSink, otlpSinkFromEnvironment } from '@agent-trace/trace/otlp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { input, receiver } from './otlp-fixtures.js';

describe('otlpSinkFromEnvironment', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is off without an endpoint in the environment', () => {
    vi.stubEnv('TRACE_OTLP_ENDPOINT', '');
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '');
    expect(otlpSinkFromEnvironment()).toBeUndefined();
  });

  it('follows the standard variables: endpoint, protocol, service name', async () => {
    const collector = await receiver();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', collector.httpUrl.replace('/v1/traces', ''));
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf');
    vi.stubEnv('OTEL_SERVICE_NAME', 'desk-from-env');
    const sink = otlpSinkFromEnvironment()!;
    await run(reviewDesk(), input, { trace: sink });
    await sink.shutdown();
    expect(collector.spans).toHaveLength(37);
    expect(collector.spans[0]?.resource['service.name']).toBe('desk-from-env');
  });

  it.each(['grpc', 'http'] as const)('sends the given headers over %s', async protocol => {
    const collector = await receiver();
    const endpoint = protocol === 'grpc' ? collector.url : collector.httpUrl;
    const headers = { Authorization: 'Bearer collector-token', 'x-tenant': 'team-a' };
    await run(reviewDesk(), input, { trace: otlpSink({ endpoint, protocol, headers }) });
    await collector.waitForSpans(37); // sent in the background
    expect(collector.lastHeaders).toMatchObject({
      authorization: 'Bearer collector-token',
      'x-tenant': 'team-a',
    });
  });

  it('refuses a protocol it does not speak, saying which ones it does', () => {
    vi.stubEnv('TRACE_OTLP_ENDPOINT', 'http://127.0.0.1:4317');
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    expect(() => otlpSinkFromEnvironment()).toThrow(/'http\/json'.*use grpc or http\/protobuf/);
  });
});
