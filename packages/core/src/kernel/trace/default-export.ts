import type { TraceSink } from './trace-sink.js';

/**
 * Where runs export by default: what the application (or `@agent-trace/trace/register`, which
 * reads the OTLP endpoint from the environment) registers with {@link setDefaultExport}, the way
 * the OpenTelemetry API is given an SDK. Core reads no environment and loads no exporter itself.
 */
export interface DefaultExport {
  /** The sinks to add to a run that starts now: none when there is nowhere to export to. */
  sinks(): readonly TraceSink[];
}

let registered: DefaultExport | undefined;

/**
 * Registers where every run, workflow run and planned run also exports (unless its own sinks
 * already export, an `otlpSink` or `otelSink`, or it says `autoExport: false`); `undefined`
 * removes it. One per process: the last registration wins.
 */
export function setDefaultExport(provider: DefaultExport | undefined): void {
  registered = provider;
}

/** The sinks a run adds for the default export: none without a registration or when it exports. */
export function defaultExportSinks(
  own: readonly TraceSink[],
  autoExport: boolean | undefined,
): readonly TraceSink[] {
  if (autoExport === false || registered === undefined) return [];
  if (own.some(sink => sink.beforeSeal !== undefined || sink.live !== undefined)) return [];
  try {
    return registered.sinks();
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
  node?.emitWarning?.(`No default export: ${message}`, 'AgentTraceWarning');
}
