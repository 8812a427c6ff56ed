import { type TraceSink } from '@agent-trace/core';
import { setDefaultExport } from '@agent-trace/core/record';
import { otlpEndpointFromEnvironment, otlpSink, type OtlpSink } from './otlp-sink.js';

let shared: { endpoint: string; sink: OtlpSink } | undefined;

/**
 * The process's OTLP sink for runs that export because the environment asks them to
 * (`TRACE_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT`): one per process and endpoint, shut
 * down when the process is about to exit, within the export timeout (1.5 s) and a small margin,
 * whatever the collector does; spans it could not send are counted on stderr. Undefined when no
 * endpoint is set.
 */
export function environmentOtlpSink(
  environment: NodeJS.ProcessEnv = process.env,
): OtlpSink | undefined {
  const endpoint = otlpEndpointFromEnvironment(environment);
  if (endpoint === undefined) return undefined;
  if (shared?.endpoint === endpoint) return shared.sink;
  const sink = otlpSink({ endpoint, exportTimeoutMs: exitWaitMs });
  shared = { endpoint, sink };
  process.once('beforeExit', () => void leave(sink, endpoint));
  return sink;
}

/** How long the process may wait at its end for the collector to take the last spans. */
const exitWaitMs = 1500;
/**
 * The wait when the collector's last answer was a failure: none, since the requests that failed
 * already held the process for their timeout, and the end does not wait a second time.
 */
const failingWaitMs = 0;
/** What the exporter's own clean-up gets past the wait before the process ends anyway. */
const exitMarginMs = 100;

/**
 * The process is ending (its event loop ran out of work): sends the last spans within
 * {@link exitWaitMs} ({@link failingWaitMs} when the collector is failing), and says on stderr how
 * many did not reach the collector and why. Whatever the exporter still holds after that (a
 * connect to an unreachable host, a collector that never answers) does not keep the process: it
 * ends at the wait plus a small margin.
 */
async function leave(sink: OtlpSink, endpoint: string): Promise<void> {
  const wait = sink.stats.failing ? failingWaitMs : exitWaitMs;
  setTimeout(() => process.exit(), wait + exitMarginMs).unref();
  await sink.shutdown(wait);
  const { failed, dropped, lastFailure } = sink.stats;
  const lost = failed + dropped;
  // The first line of why (gRPC's errors go on with resolution notes).
  const why = lastFailure?.split(/\n|,\s*name resolution|\.? Resolution note/)[0];
  if (lost > 0)
    process.stderr.write(
      `agent-trace: ${lost} span${lost === 1 ? '' : 's'} not exported to ${endpoint}${why === undefined ? '' : `: ${why}`}\n`,
    );
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
