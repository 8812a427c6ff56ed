import { setDefaultExport, type TraceSink } from '@agent-trace/core';
import { otlpEndpointFromEnvironment, otlpSink, type OtlpSink } from './otlp-sink.js';

let shared: { endpoint: string; sink: OtlpSink } | undefined;

/**
 * The process's OTLP sink for runs that export because the environment asks them to
 * (`TRACE_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT`): one per process and endpoint, shut
 * down (its last spans sent, bounded) when the process is about to exit. Undefined when no
 * endpoint is set.
 */
export function environmentOtlpSink(
  environment: NodeJS.ProcessEnv = process.env,
): OtlpSink | undefined {
  const endpoint = otlpEndpointFromEnvironment(environment);
  if (endpoint === undefined) return undefined;
  if (shared?.endpoint === endpoint) return shared.sink;
  const sink = otlpSink({ endpoint });
  shared = { endpoint, sink };
  process.once('beforeExit', () => void sink.shutdown());
  return sink;
}

/** The sinks a run adds from the environment: what `run()` asks for when the endpoint is set. */
export function environmentSinks(): TraceSink[] {
  const sink = environmentOtlpSink();
  return sink === undefined ? [] : [sink];
}

/**
 * Makes the environment's OTLP endpoint the process's default export: every run, workflow run and
 * planned run then also exports there (unless it exports itself or says `autoExport: false`). The
 * endpoint is read when each run starts, so setting it later takes effect. What
 * `@agent-trace/trace/register` does on import.
 */
export function registerEnvironmentExport(): void {
  setDefaultExport({ sinks: environmentSinks });
}
