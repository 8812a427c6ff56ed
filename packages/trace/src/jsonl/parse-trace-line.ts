import {
  isTraceEvent,
  SUPPORTED_TRACE_SCHEMA_VERSIONS,
  TraceEvent,
  type TraceEvent as TraceEventType,
} from '@agent-trace/core';
import { TraceParseError } from './trace-parse-error.js';

/**
 * Parses and validates one line of a JSONL trace. The event is returned as it was written,
 * fields this version does not know included. Throws a {@link TraceParseError} naming the file
 * and line.
 */
export function parseTraceLine(text: string, file: string, line: number): TraceEventType {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TraceParseError({
      file,
      line,
      cause: error,
      reason: `not valid JSON (${error instanceof Error ? error.message : String(error)}). Each line of a trace must be one JSON event; was the file edited by hand or written by another tool?`,
    });
  }
  if (isTraceEvent(value)) return value; // the fast path; zod explains the others
  const version = (value as { v?: unknown } | null)?.v;
  if (typeof version === 'number' && !SUPPORTED_TRACE_SCHEMA_VERSIONS.includes(version)) {
    throw new TraceParseError({
      file,
      line,
      reason: `trace schema version ${version} is not supported (this agent-trace reads ${SUPPORTED_TRACE_SCHEMA_VERSIONS.join(', ')}). Upgrade agent-trace to read this trace.`,
    });
  }
  const checked = TraceEvent.safeParse(value);
  if (!checked.success) {
    const issues = checked.error.issues
      .slice(0, 3)
      .map(issue => `${issue.path.length > 0 ? issue.path.join('.') : '(event)'}: ${issue.message}`)
      .join('; ');
    const name = (value as { event?: unknown } | null)?.event;
    throw new TraceParseError({
      file,
      line,
      cause: checked.error,
      reason: `not a valid trace event${typeof name === 'string' ? ` ('${name}')` : ''}: ${issues}. The line does not match the agent-trace event schema.`,
    });
  }
  return value as TraceEventType;
}
