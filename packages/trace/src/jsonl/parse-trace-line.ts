import {
  isTraceEvent,
  stopReasons,
  SUPPORTED_TRACE_SCHEMA_VERSIONS,
  TraceEvent,
  type TraceEvent as TraceEventType,
} from '@agent-trace/core';
import { knownTraceFields, TraceEventEnvelope } from '@agent-trace/core/record';
import type { z } from 'zod';
import { NewerEvent, type NewerContentLog } from './newer-content.js';
import { maxNestingDepth, nestsDeeperThan } from './nesting-depth.js';
import { TraceParseError } from './trace-parse-error.js';

/**
 * Parses and validates one line of a JSONL trace. The event is returned as it was written,
 * fields this version does not know included. Throws a {@link TraceParseError} naming the file
 * and line.
 */
export function parseTraceLine(text: string, file: string, line: number): TraceEventType {
  return checkTraceValue(parseJson(text, file, line), file, line);
}

/**
 * Reads one line as {@link parseTraceLine} does, but what a newer minor version of the schema
 * wrote (same `v`) is skipped instead of refused: an unknown event kind comes back as a
 * {@link NewerEvent} (its envelope checked), an unknown field is left in the event; both are
 * reported to `log`, once each. A newer major version is still an error.
 */
export function readTraceLine(
  text: string,
  file: string,
  line: number,
  log: NewerContentLog,
): TraceEventType | NewerEvent {
  const value = parseJson(text, file, line);
  if (isTraceEvent(value)) {
    log.fields(value, file, line);
    return value;
  }
  const kind = (value as { event?: unknown } | null)?.event;
  if (typeof kind === 'string' && !knownTraceFields.has(kind)) {
    checkVersion(value, file, line);
    const envelope = TraceEventEnvelope.safeParse(value);
    if (envelope.success) {
      log.event(file, line, kind);
      return new NewerEvent(envelope.data);
    }
  }
  const event = withNewerStopReason(value, file, line, log) ?? checkTraceValue(value, file, line);
  log.fields(event, file, line);
  return event;
}

/**
 * An event whose stop reason a newer minor version added (a snake_case name this version does not
 * know), otherwise valid: kept as written, and reported once. Undefined for any other event.
 */
function withNewerStopReason(
  value: unknown,
  file: string,
  line: number,
  log: NewerContentLog,
): TraceEventType | undefined {
  const { stop_reason: reason, event } = (value ?? {}) as {
    stop_reason?: unknown;
    event?: unknown;
  };
  if (typeof reason !== 'string' || typeof event !== 'string') return undefined;
  if (stopReasons.includes(reason as never) || !/^[a-z][a-z0-9_]*$/.test(reason)) return undefined;
  if (!isTraceEvent({ ...(value as object), stop_reason: 'error' })) return undefined;
  log.value(file, line, event, 'stop_reason', reason);
  return value as TraceEventType;
}

function parseJson(text: string, file: string, line: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new TraceParseError({
      file,
      line,
      cause: error,
      reason: `not valid JSON (${error instanceof Error ? error.message : String(error)}). Each line of a trace must be one JSON event; was the file edited by hand or written by another tool?`,
    });
  }
  if (nestsDeeperThan(text))
    throw new TraceParseError({
      file,
      line,
      reason: `arrays and objects nested more than ${maxNestingDepth} levels deep: agent-trace reads, compares and renders values up to ${maxNestingDepth} levels. Was a value (tool arguments, a result) built by a loop that nests it?`,
    });
  return value;
}

function checkTraceValue(value: unknown, file: string, line: number): TraceEventType {
  if (isTraceEvent(value)) return value; // the fast path; zod explains the others
  checkVersion(value, file, line);
  const checked = TraceEvent.safeParse(value);
  if (!checked.success)
    throw new TraceParseError({
      file,
      line,
      cause: checked.error,
      reason: `${schemaIssues(value, checked.error)} The line does not match the agent-trace event schema.`,
    });
  return value as TraceEventType;
}

/**
 * What is wrong with a value that is no trace event (`not a valid trace event ('tool_start'):
 * args: …`), or undefined for a valid one: the words `validateTrace` and the reader share.
 */
export function schemaProblem(value: unknown): string | undefined {
  if (isTraceEvent(value)) return undefined;
  const checked = TraceEvent.safeParse(value);
  return checked.success ? undefined : schemaIssues(value, checked.error);
}

function schemaIssues(value: unknown, error: z.ZodError): string {
  const issues = error.issues
    .slice(0, 3)
    .map(issue => `${issue.path.length > 0 ? issue.path.join('.') : '(event)'}: ${issue.message}`)
    .join('; ');
  const name = (value as { event?: unknown } | null)?.event;
  return `not a valid trace event${typeof name === 'string' ? ` ('${name}')` : ''}: ${issues}.`;
}

function checkVersion(value: unknown, file: string, line: number): void {
  const version = (value as { v?: unknown } | null)?.v;
  if (typeof version === 'number' && !SUPPORTED_TRACE_SCHEMA_VERSIONS.includes(version)) {
    throw new TraceParseError({
      file,
      line,
      reason: `trace schema version ${version} is not supported (this agent-trace reads ${SUPPORTED_TRACE_SCHEMA_VERSIONS.join(', ')}): the file was written by an agent-trace with a newer major version. Upgrade agent-trace to read this trace.`,
    });
  }
}
