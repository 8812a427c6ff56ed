import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { pretty } from '../../src/format.js';
import type { Row } from '../model/run-model.js';
import { ErrorField, Field, Section, Text, Timing } from './inspector-parts.js';

/** A plain span (another system's, kept by an import): its name, kind, service and attributes. */
export function PlainSpanView({
  start,
  end,
  row,
}: {
  start: TraceEventOf<'span_start'>;
  end: TraceEvent | undefined;
  row: Row;
}) {
  const attributes = Object.entries(start.attributes ?? {});
  return (
    <>
      <Field name="span">{start.name}</Field>
      <Field name="kind">{start.span_kind ?? 'internal'}</Field>
      {start.service === undefined ? null : <Field name="service">{start.service}</Field>}
      <Timing row={row} />
      <ErrorField error={end?.event === 'span_end' ? end.error : undefined} />
      {attributes.length === 0 ? null : (
        <Section title="Attributes">
          <dl class="attributes" aria-label="Attributes">
            {attributes.map(([key, value]) => (
              <>
                <dt>{key}</dt>
                <dd>
                  <Text>{pretty(value)}</Text>
                </dd>
              </>
            ))}
          </dl>
        </Section>
      )}
    </>
  );
}
