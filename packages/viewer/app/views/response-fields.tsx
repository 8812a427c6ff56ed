import type { TraceEventOf } from '@agent-trace/core';
import { Field } from './inspector-parts.js';

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
