/**
 * An agent inside a service instrumented with OpenTelemetry's NodeSDK: an HTTP route runs the
 * agent, whose tool calls another HTTP service. Run it with
 *
 *   npx tsx docs/examples/node-sdk-service.ts
 *
 * It serves one request and prints the spans the service made, as a tree: the request's server
 * span, the agent's spans under it, and the tool's outbound HTTP call under `execute_tool`. With
 * `OTEL_EXPORTER_OTLP_ENDPOINT` set (Jaeger: http://127.0.0.1:4317) they go there instead.
 */
import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { agent, run, tool } from '@agent-trace/core';
import { fakeLLM } from '@agent-trace/testing';
import { jsonlSink } from '@agent-trace/trace';
import { otelSink } from '@agent-trace/trace/otlp';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { z } from 'zod';

const say = (text: string): void => void process.stdout.write(`${text}\n`);

// 1. The service's OpenTelemetry, as it is set up at start (here: kept in memory to print it).
process.env.OTEL_METRICS_EXPORTER ??= 'none';
process.env.OTEL_LOGS_EXPORTER ??= 'none';
const spans: ReadableSpan[] = [];
const memory: SpanExporter = {
  export: (finished, done) => {
    spans.push(...finished);
    done({ code: 0 });
  },
  shutdown: () => Promise.resolve(),
};
const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '';
const sdk = new NodeSDK({
  serviceName: 'rates-service',
  traceExporter: endpoint === '' ? memory : new OTLPTraceExporter(),
  instrumentations: [new HttpInstrumentation()],
});
sdk.start();
const http = createRequire(import.meta.url)('node:http') as typeof Http;

// 2. An upstream service the agent's tool calls.
const upstream = http.createServer((_, response) => response.end('{"eur":0.92}'));
await new Promise<void>(resolve => upstream.listen(0, '127.0.0.1', resolve));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, response => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

const fetchRate = tool({
  name: 'fetch_rate',
  description: 'Fetch the USD→EUR rate',
  input: z.object({}),
  execute: async () => JSON.parse(await get(`${upstreamUrl}/rates`)) as unknown,
});

// 3. The route: every request runs the agent, traced to JSONL and through the service's SDK.
const service = http.createServer((_, response) => {
  const model = fakeLLM([
    { toolCalls: [{ name: 'fetch_rate', args: {} }] },
    { text: '1 USD is 0.92 EUR.' },
  ]);
  void run(agent({ name: 'rates', model, tools: [fetchRate] }), 'USD to EUR?', {
    trace: [jsonlSink('traces/node-sdk-service.jsonl'), otelSink()],
  }).then(result => response.end(String(result.output)));
});
await new Promise<void>(resolve => service.listen(0, '127.0.0.1', resolve));
const answer = await get(`http://127.0.0.1:${(service.address() as AddressInfo).port}/convert`);
say(`GET /convert → ${answer}\n`);

await new Promise(resolve => service.close(resolve));
await new Promise(resolve => upstream.close(resolve));
await sdk.shutdown();

// 4. The spans, as a tree (one trace: the request's), unless they went to a collector.
if (endpoint !== '') say(`The spans went to ${endpoint}.`);
const children = (parent: string | undefined): ReadableSpan[] =>
  spans
    .filter(span => span.parentSpanContext?.spanId === parent)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
const print = (span: ReadableSpan, depth: number): void => {
  const kind = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'][span.kind] ?? '';
  say(`${'  '.repeat(depth)}${span.name}  ${kind}  trace ${span.spanContext().traceId}`);
  for (const child of children(span.spanContext().spanId)) print(child, depth + 1);
};
for (const root of children(undefined)) print(root, 0);
say('\nThe JSONL trace (traces/node-sdk-service.jsonl) has the same trace id.');
