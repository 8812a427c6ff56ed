import { type TraceEvent } from '@agent-trace/core';
import { knownTraceFields, type TraceEventEnvelope } from '@agent-trace/core/record';

/**
 * Something a newer minor version of the trace schema wrote (same `v`): an event kind, or a field
 * of a known event kind, that this version does not know. Readers skip it.
 */
export interface NewerContent {
  readonly file: string;
  /** The first line it was seen on (1-based). */
  readonly line: number;
  /** The event kind. */
  readonly event: string;
  /** The field, when a known event kind carries one this version does not know. */
  readonly field?: string;
  /** The value, when a known field holds one this version does not know (a stop reason). */
  readonly value?: string;
}

/** An event of a kind this version does not know: only its envelope was checked. */
export class NewerEvent {
  constructor(readonly envelope: TraceEventEnvelope) {}
}

/** One line of text for a person: where, what, and what was done about it. */
export function describeNewerContent(content: NewerContent): string {
  if (content.value !== undefined)
    return `${content.file}:${content.line}: ${content.field ?? 'value'} '${content.value}' of '${content.event}' events was written by a newer agent-trace (same schema major version); this version shows it as written but does not know what it means. Upgrade agent-trace to see it.`;
  const what =
    content.field === undefined
      ? `event kind '${content.event}'`
      : `field '${content.field}' of '${content.event}' events`;
  return `${content.file}:${content.line}: ${what} was written by a newer agent-trace (same schema major version); this version skips it. Upgrade agent-trace to see it.`;
}

/** True when an event has a field this version does not know for its kind. */
type FieldCheck = (event: object) => boolean;
let fieldChecks: ReadonlyMap<string, FieldCheck> | undefined;

/**
 * One check a kind, run on every event a reader reads: a generated `switch` over the names this
 * version knows, which V8 runs about twice as fast as a set lookup a field; the set lookup where
 * the runtime forbids code generation.
 */
function compileFieldChecks(): ReadonlyMap<string, FieldCheck> {
  return new Map(
    [...knownTraceFields].map(([kind, known]): [string, FieldCheck] => {
      const cases = [...known].map(name => `case ${JSON.stringify(name)}:`).join(' ');
      const body = `for (const k in v) switch (k) { ${cases} continue; default: return true; }\nreturn false;`;
      try {
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from the schema's own field names, no input reaches the source
        return [kind, new Function('v', body) as FieldCheck];
      } catch {
        return [kind, event => Object.keys(event).some(field => !known.has(field))];
      }
    }),
  );
}

/** Reports each newer event kind, and each newer field of a kind, once: where it is first seen. */
export class NewerContentLog {
  readonly #seen = new Set<string>();
  readonly #report: (content: NewerContent) => void;

  constructor(report: (content: NewerContent) => void) {
    this.#report = report;
  }

  /** An event of a kind this version does not know. */
  event(file: string, line: number, event: string): void {
    this.#once(`${event}\n`, { file, line, event });
  }

  /** A value of a known field that this version does not know (a newer stop reason). */
  value(file: string, line: number, event: string, field: string, value: string): void {
    this.#once(`${event}\n${field}\n${value}`, { file, line, event, field, value });
  }

  /** Reports the fields of a known event that this version does not know. */
  fields(event: TraceEvent, file: string, line: number): void {
    // Most events have none, which the generated check says; the fields are named only after.
    if ((fieldChecks ??= compileFieldChecks()).get(event.event)?.(event) !== true) return;
    const known = knownTraceFields.get(event.event)!;
    for (const field in event) {
      if (!known.has(field))
        this.#once(`${event.event}\n${field}`, { file, line, event: event.event, field });
    }
  }

  #once(key: string, content: NewerContent): void {
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#report(content);
  }
}

/** The default report: one process warning per newer kind or field. */
export function warnNewerContent(content: NewerContent): void {
  process.emitWarning(describeNewerContent(content), { code: 'AGENT_TRACE_NEWER_CONTENT' });
}
