import { otlpSink, type OtlpSink } from '@agent-trace/trace/otlp';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';
import { TraceInput, unreadableTrace } from './trace-input.js';

/** Options of {@link exportCommand}. */
export interface ExportCommandOptions {
  readonly endpoint: string;
  readonly protocol: 'grpc' | 'http';
  /** `service.name` of the spans. @defaultValue `OTEL_SERVICE_NAME`, else 'agent-trace' */
  readonly serviceName?: string;
  /**
   * Also write the OpenInference attributes Arize Phoenix reads (see `otlpSink`'s option).
   * @defaultValue true when `TRACE_OTLP_OPENINFERENCE` is `true`, else false
   */
  readonly openInference?: boolean;
  /** Longest wait for the collector at the end. @defaultValue 10000 */
  readonly flushTimeoutMs?: number;
  readonly style: Style;
}

/**
 * `agent-trace export <trace> --otlp <url>`: sends a recorded JSONL trace as OpenTelemetry spans,
 * with its original trace ids, span ids and times, so a trace recorded in CI can be looked at in
 * Jaeger later. Exit 0 when every span was accepted, 1 when some were not, 2 when the trace cannot
 * be read.
 */
export async function exportCommand(
  file: string,
  options: ExportCommandOptions,
): Promise<CommandResult> {
  if (options.protocol !== 'grpc' && options.protocol !== 'http') {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Invalid --protocol '${String(options.protocol)}': use grpc or http.`,
    };
  }
  if (!isHttpUrl(options.endpoint)) {
    return {
      exitCode: exitCodes.unreadable,
      stdout: '',
      stderr: `Invalid --otlp '${options.endpoint}': expected the collector's URL, e.g. http://127.0.0.1:4317 (gRPC) or http://127.0.0.1:4318 (HTTP).`,
    };
  }
  const sink = exportSink(options);
  let events = 0;
  const input = new TraceInput(file);
  try {
    for await (const event of input.events()) {
      sink.write(event);
      events++;
    }
  } catch (error) {
    await sink.shutdown();
    return unreadableTrace(error, file);
  }
  await sink.shutdown();
  const torn = [
    ...input.warnings,
    ...(input.tornTail === undefined
      ? []
      : ['spans left without an end by the torn line were sent marked unfinished.']),
  ].join('\n');
  const { exported, failed, dropped } = sink.stats;
  const summary = `${events} events → ${exported} spans sent to ${options.endpoint} (${options.protocol})`;
  if (failed === 0 && dropped === 0)
    return {
      exitCode: exitCodes.ok,
      stdout: `${options.style.green('✓')} ${summary}`,
      stderr: torn,
    };
  return {
    exitCode: exitCodes.failed,
    stdout: `${options.style.red('✗')} ${summary}; ${failed} failed, ${dropped} dropped`,
    stderr: `${torn === '' ? '' : `${torn}\n`}The collector at ${options.endpoint} did not take every span: is it running and listening for OTLP/${options.protocol === 'grpc' ? 'gRPC (port 4317)' : 'HTTP (port 4318)'}?`,
  };
}

/** The sink that sends the trace: spans only, with the command's timing and naming. */
function exportSink(options: ExportCommandOptions): OtlpSink {
  const flushTimeoutMs = options.flushTimeoutMs ?? 10_000;
  return otlpSink({
    endpoint: options.endpoint,
    protocol: options.protocol,
    flushTimeoutMs,
    exportTimeoutMs: Math.max(500, flushTimeoutMs - 500),
    // A recorded trace's metrics would carry the time of the export, not of the run.
    metrics: false,
    ...(options.serviceName === undefined ? {} : { serviceName: options.serviceName }),
    ...(options.openInference === undefined ? {} : { openInference: options.openInference }),
  });
}

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}
