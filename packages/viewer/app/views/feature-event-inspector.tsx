import type { TraceEventOf } from '@agent-trace/core';
import { pretty } from '../../src/format.js';
import { Field, Section, Text } from './inspector-parts.js';

/** A feature's own event (its name and data), or its transform (what it changed, and into what). */
export function FeatureEventView({ event }: { event: TraceEventOf<'feature' | 'transform'> }) {
  if (event.event === 'feature')
    return (
      <>
        <Field name="feature">{event.feature}</Field>
        <Field name="event">{event.name}</Field>
        {event.data === undefined ? null : (
          <Section title="Data">
            <Text>{pretty(event.data)}</Text>
          </Section>
        )}
      </>
    );
  return (
    <>
      <Field name="feature">{event.feature}</Field>
      <Field name="changed">
        {event.target}: {event.changed.join(', ')}
      </Field>
      {event.tool === undefined ? null : (
        <Field name="call">
          {event.tool} ({event.call_id})
        </Field>
      )}
      {event.content === undefined ? null : (
        <Section title="What the model reads">
          <Text>{event.content}</Text>
        </Section>
      )}
    </>
  );
}
