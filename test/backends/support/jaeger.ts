/**
 * A real Jaeger v2 (`cmd/jaeger` at the version `scripts/backends/jaeger.sh` builds), started on
 * 127.0.0.1 with free ports and in-memory storage: OTLP gRPC and HTTP in, the HTTP query API out.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backendProgram, freePorts, startBackend, type BackendProcess } from './backend-process.js';

/** A running Jaeger and where to reach it. */
export interface Jaeger extends BackendProcess {
  /** OTLP over gRPC, e.g. `http://127.0.0.1:41234`. */
  readonly otlpGrpc: string;
  /** OTLP over HTTP (protobuf), the base URL: `/v1/traces` goes after it. */
  readonly otlpHttp: string;
  /** The query service's HTTP API and UI, e.g. `http://127.0.0.1:41236`. */
  readonly query: string;
}

function config(ports: readonly number[]): string {
  const [grpc, http, query, queryGrpc, health] = ports.map(port => `127.0.0.1:${port}`);
  return `service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  healthcheckv2:
    use_v2: true
    http:
      endpoint: ${health}
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: ${query}
    grpc:
      endpoint: ${queryGrpc}
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      grpc:
        endpoint: ${grpc}
      http:
        endpoint: ${http}
processors:
  batch:
    timeout: 20ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

/** Starts Jaeger (building it first when this machine has not yet: minutes, once). */
export async function startJaeger(): Promise<Jaeger> {
  const program = backendProgram('jaeger');
  const ports = await freePorts(5);
  const [grpc, http, query, , health] = ports;
  const started = await startBackend({
    name: 'jaeger',
    program,
    args: folder => {
      const file = join(folder, 'config.yaml');
      writeFileSync(file, config(ports));
      return ['--config', file];
    },
    ready: async () => (await fetch(`http://127.0.0.1:${health}/status`)).ok,
  });
  return {
    ...started,
    otlpGrpc: `http://127.0.0.1:${grpc}`,
    otlpHttp: `http://127.0.0.1:${http}`,
    query: `http://127.0.0.1:${query}`,
  };
}
