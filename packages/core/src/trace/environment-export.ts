import { importPeer } from '../util/import-peer.js';
import type { TraceSink } from './trace-sink.js';

/** What `@agent-trace/trace/otlp` offers a run that exports because the environment asks. */
interface EnvironmentExport {
  environmentSinks(): TraceSink[];
}

/** The environment's OTLP endpoint, when one is set: `TRACE_OTLP_ENDPOINT` first. */
function endpointInEnvironment(): string | undefined {
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } })
    .process?.env;
  const endpoint =
    environment?.TRACE_OTLP_ENDPOINT ??
    environment?.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    environment?.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint === undefined || endpoint === '' ? undefined : endpoint;
}

// Not a literal: core does not depend on the trace package, which depends on core. It is an
// optional peer, loaded only when the environment asks for export.
const tracePackage = '@agent-trace/trace/otlp';

/**
 * The sinks a run adds because the environment asks for export (an OTLP endpoint is set), unless
 * its own sinks already export (an `otlpSink`, an `otelSink`) or it opted out. Empty, and no
 * import made, when no endpoint is set.
 */
export async function environmentSinks(
  own: readonly TraceSink[],
  autoExport: boolean | undefined,
): Promise<TraceSink[]> {
  if (autoExport === false || endpointInEnvironment() === undefined) return [];
  if (own.some(sink => sink.beforeSeal !== undefined || sink.live !== undefined)) return [];
  try {
    const module = await importPeer(() => import(tracePackage) as Promise<EnvironmentExport>, {
      peer: '@agent-trace/trace',
      needer: 'Exporting to the OTLP endpoint in the environment (TRACE_OTLP_ENDPOINT)',
      range: '*',
    });
    return module.environmentSinks();
  } catch (error) {
    // Export never fails a run: say once why there is none, and run without it.
    warnOnce(error instanceof Error ? error.message : String(error));
    return [];
  }
}

let warned = false;

function warnOnce(message: string): void {
  if (warned) return;
  warned = true;
  const node = (
    globalThis as { process?: { emitWarning?: (message: string, type: string) => void } }
  ).process;
  node?.emitWarning?.(`No OTLP export: ${message}`, 'AgentTraceWarning');
}
