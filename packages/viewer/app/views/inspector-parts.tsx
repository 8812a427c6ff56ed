import type { ComponentChildren } from 'preact';
import { duration } from '../../src/format.js';
import type { Row } from '../model/run-model.js';

/** The inspector's building blocks: a named field, a block of text, a titled section, an error, a time. */
export function Field({ name, children }: { name: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <span class="field-name">{name}</span>
      <span class="field-value">{children}</span>
    </div>
  );
}

export function Text({ children, label }: { children: string; label?: string }) {
  return (
    <pre class="text" aria-label={label}>
      {children}
    </pre>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="inspector-section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

export function ErrorField({ error }: { error: { type: string; message: string } | undefined }) {
  if (error === undefined) return null;
  return (
    <div class="error-box">
      <strong>{error.type}</strong>
      <Text>{error.message}</Text>
    </div>
  );
}

export function Timing({ row }: { row: Row }) {
  return (
    <Field name="time">
      at {duration(row.startMs)}
      {!row.ended
        ? row.status === 'open'
          ? ' · not ended'
          : ''
        : ` · took ${duration(row.endMs - row.startMs)}`}
    </Field>
  );
}
