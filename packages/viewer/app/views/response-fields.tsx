import type { TraceEventOf } from '@agent-trace/core';
import type { RunModel } from '../model/run-model.js';
import { Field, Section } from './inspector-parts.js';

/**
 * What the provider said of a model call's answer: the model that answered when it is not the one
 * asked for, the answer's id and the server, and for a streamed call its first chunk and chunks.
 */
export function ResponseFields({
  start,
  answer,
}: {
  start: TraceEventOf<'llm_start'>;
  answer: TraceEventOf<'llm_end'> | undefined;
}) {
  return (
    <>
      {answer?.response_model === undefined || answer.response_model === start.model ? null : (
        <Field name="answered by">{answer.response_model}</Field>
      )}
      {answer?.response_id === undefined ? null : (
        <Field name="response">
          {answer.response_id}
          {start.server === undefined ? '' : ` · ${start.server.address}:${start.server.port}`}
        </Field>
      )}
      {answer?.first_chunk_ms === undefined ? null : (
        <Field name="stream">
          first chunk after {answer.first_chunk_ms} ms · {answer.chunks ?? 0} chunks
        </Field>
      )}
    </>
  );
}

/**
 * The scores that judge this span (an eval case's, on its run's entry agent): each scorer, its
 * score and label, and why; what a backend shows of the `gen_ai.evaluation.result` events.
 */
export function Evaluations({ run, spanId }: { run: RunModel; spanId: string }) {
  const judged = (run.evaluations ?? []).filter(evaluation => evaluation.spanId === spanId);
  if (judged.length === 0) return null;
  return (
    <Section title="Evaluations">
      <ul class="evaluations" aria-label="Evaluations">
        {judged.map(evaluation => (
          <li class={`evaluation ${evaluation.label ?? 'partial'}`}>
            <strong>{evaluation.name}</strong> {evaluation.score}
            {evaluation.label === undefined ? '' : ` · ${evaluation.label}`}
            {evaluation.explanation === undefined ? null : (
              <div class="muted">{evaluation.explanation}</div>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}
