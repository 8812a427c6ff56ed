/**
 * Agent spans inside a service's own OpenTelemetry: an HTTP server started under NodeSDK (OTLP
 * gRPC to an in-process receiver, the HTTP instrumentation on) runs an agent per request. The
 * agent's spans belong to the request's trace, under its server span, and a tool's outbound HTTP
 * call is a child of the tool's `execute_tool` span.
 */
import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { startOtlpReceiver, type OtlpReceiver } from '@agent-trace/testing/otlp';
import { memorySink, validateTrace } from '@agent-trace/trace';
import { otelSink } from '@agent-trace/trace/otlp';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

let receiver: OtlpReceiver;
let sdk: NodeSDK;
let http: typeof Http;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // Traces only: no metrics or logs exporters looking for a collector on the default ports.
  process.env.OTEL_METRICS_EXPORTER = 'none';
  process.env.OTEL_LOGS_EXPORTER = 'none';
  sdk = new NodeSDK({
    serviceName: 'rates-service',
    traceExporter: new OTLPTraceExporter({ url: receiver.url }),
    instrumentations: [new HttpInstrumentation()],
  });
  sdk.start();
  // Required after the SDK started, so the HTTP instrumentation has patched the module.
  http = createRequire(import.meta.url)('node:http') as typeof Http;
});

afterAll(async () => {
  await sdk.shutdown();
  await receiver.close();
});

/** Starts a server on 127.0.0.1 and returns its base URL and a way to close it. */
async function serve(
  handler: (request: Http.IncomingMessage, response: Http.ServerResponse) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise(resolve => server.close(() => resolve())),
  };
}

/** A GET whose body is returned as text. */
function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, response => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

describe('otelSink under NodeSDK', () => {
  it("puts the agent's spans in the request's trace, and the tool's HTTP call under execute_tool", async () => {
    const upstream = await serve((_, response) => response.end(JSON.stringify({ eur: 0.92 })));
    const rate = tool({
      name: 'fetch_rate',
      description: 'Fetch the USD→EUR rate from the rates service',
      input: z.object({}),
      execute: async () => JSON.parse(await get(`${upstream.url}/rates`)) as unknown,
    });
    const jsonl = memorySink();
    const service = await serve((_, response) => {
      const model = fakeLLM([
        { toolCalls: [{ name: 'fetch_rate', args: {} }] },
        { text: '1 USD is 0.92 EUR.' },
      ]);
      void run(agent({ name: 'rates', model, tools: [rate] }), 'USD to EUR?', {
        trace: [jsonl, otelSink()],
      }).then(result => response.end(String(result.output)));
    });
    expect(await get(`${service.url}/convert`)).toBe('1 USD is 0.92 EUR.');
    await Promise.all([service.close(), upstream.close()]);
    await sdk.shutdown(); // flushes the batch processor
    await receiver.waitForSpans(9);

    const spans = receiver.spans;
    const server = spans.find(
      span => span.kind === 'SERVER' && span.attributes['url.path'] === '/convert',
    );
    expect(server).toBeDefined();
    const runSpan = spans.find(span => span.name === 'invoke_workflow rates')!;
    expect(runSpan.traceId).toBe(server!.traceId);
    expect(runSpan.parentSpanId).toBe(server!.spanId);
    const agentSpan = spans.find(span => span.name === 'invoke_agent rates')!;
    expect(agentSpan.parentSpanId).toBe(runSpan.spanId);
    const toolSpan = spans.find(span => span.name === 'execute_tool fetch_rate')!;
    expect(toolSpan.parentSpanId).toBe(agentSpan.spanId);
    expect(toolSpan.attributes['gen_ai.tool.name']).toBe('fetch_rate');
    const outbound = spans.find(
      span => span.kind === 'CLIENT' && span.parentSpanId === toolSpan.spanId,
    );
    expect(outbound?.traceId).toBe(server!.traceId);
    expect(spans.filter(span => span.name === 'chat fake-model')).toHaveLength(2);
    expect(spans.every(span => span.resource['service.name'] === 'rates-service')).toBe(true);
    // The JSONL trace carries the backend's trace id: the two join.
    expect(new Set(jsonl.events.map(event => event.trace_id))).toEqual(new Set([server!.traceId]));
    expect(validateTrace(jsonl.events).problems).toEqual([]);
  });
});
