import { AgentTraceError } from '@agent-trace/core';
import { readTrace, type TornTail } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import type { Style } from '../render/style.js';
import { exitCodes, type CommandResult } from './command-result.js';

/** Options of {@link exportCommand}. */
export interface ExportCommandOptions {
  readonly endpoint: string;
  readonly protocol: 'grpc' | 'http';
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
  const flushTimeoutMs = options.flushTimeoutMs ?? 10_000;
  const sink = otlpSink({
    endpoint: options.endpoint,
    protocol: options.protocol,
    flushTimeoutMs,
    exportTimeoutMs: Math.max(500, flushTimeoutMs - 500),
  });
  let events = 0;
  let tornTail: TornTail | undefined;
  try {
    for await (const event of readTrace(file, { onTornTail: tail => (tornTail = tail) })) {
      sink.write(event);
      events++;
    }
  } catch (error) {
    await sink.shutdown();
    if (!AgentTraceError.isInstance(error)) throw error;
    return { exitCode: exitCodes.unreadable, stdout: '', stderr: error.message };
  }
  await sink.shutdown();
  const torn =
    tornTail === undefined
      ? ''
      : `warning: ${file}:${tornTail.line}: the last line has no newline (a write cut short by a crash); it was skipped, and spans left without an end were sent marked unfinished.`;
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
