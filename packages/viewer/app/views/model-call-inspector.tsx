import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { reasoningText } from '@agent-trace/trace/model';
import { count, dollars, prettyJsonText } from '../../src/format.js';
import type { Row } from '../model/run-model.js';
import { ErrorField, Field, Section, Text, Timing } from './inspector-parts.js';
import { ResponseFields } from './response-fields.js';

type Message = TraceEventOf<'llm_start'>['messages'][number];
type ToolCall = NonNullable<TraceEventOf<'llm_end'>['tool_calls']>[number];

function Calls({ calls }: { calls: readonly ToolCall[] }) {
  return (
    <>
      {calls.map(call => (
        <div class="tool-call">
          <div>
            <strong>{call.tool}</strong> <span class="muted">{call.call_id}</span>
          </div>
          <Text>{prettyJsonText(call.arguments)}</Text>
        </div>
      ))}
    </>
  );
}

function MessageView({ message }: { message: Message }) {
  return (
    <div class={`message role-${message.role}`} data-role={message.role}>
      <div class="message-role">
        {message.role}
        {message.role === 'tool' ? ` · ${message.tool}${message.is_error ? ' · error' : ''}` : ''}
      </div>
      {message.content === '' ? null : (
        <Text>{message.role === 'tool' ? prettyJsonText(message.content) : message.content}</Text>
      )}
      {message.role === 'assistant' && message.reasoning !== undefined ? (
        <Reasoning parts={message.reasoning} />
      ) : null}
      {message.role === 'assistant' ? <Calls calls={message.tool_calls} /> : null}
    </div>
  );
}

/** What the model thought before it answered, apart from the answer. */
function Reasoning({ parts }: { parts: TraceEventOf<'llm_end'>['reasoning'] }) {
  const text = reasoningText(parts);
  return text === undefined ? null : (
    <div class="reasoning" data-testid="reasoning">
      <Text label="reasoning">{text}</Text>
    </div>
  );
}

/** A model call in the inspector: the model, its request and answer, tokens and cost. */
export function ModelCall({
  start,
  end,
  row,
}: {
  start: TraceEventOf<'llm_start'>;
  end: TraceEvent | undefined;
  row: Row;
}) {
  const answer = end?.event === 'llm_end' ? end : undefined;
  return (
    <>
      <Field name="model">
        {answer?.model ?? start.model} <span class="muted">({start.provider})</span>
      </Field>
      <ResponseFields start={start} answer={answer} />
      <Field name="step">
        {start.step}
        {start.attempt === undefined ? '' : ` · attempt ${start.attempt}`}
        {start.phase === undefined ? '' : ` · ${start.phase}`}
      </Field>
      {answer === undefined ? null : (
        <Field name="tokens">
          {count(answer.tok_prompt)} in → {count(answer.tok_completion)} out
          {answer.tok_cache_read === undefined
            ? ''
            : ` · ${count(answer.tok_cache_read)} from cache`}
        </Field>
      )}
      {answer === undefined || answer.error !== undefined ? null : (
        <Field name="cost">
          {answer.cache_hit === true
            ? `${dollars(0)} (answered from a cache)`
            : answer.cost_usd === undefined
              ? 'unknown: the model has no price'
              : dollars(answer.cost_usd)}
        </Field>
      )}
      {answer?.finish_reason === undefined ? null : (
        <Field name="finish">{answer.finish_reason}</Field>
      )}
      <Timing row={row} />
      {start.model_settings === undefined ? null : (
        <Field name="settings">{JSON.stringify(start.model_settings)}</Field>
      )}
      <Section title={requestTitle(start)}>
        <div class="messages" data-testid="request-messages">
          {start.messages.map(message => (
            <MessageView message={message} />
          ))}
        </div>
      </Section>
      <Section title="Answer">
        <div data-testid="answer">
          <Reasoning parts={answer?.reasoning} />
          {answer?.text === undefined || answer.text === '' ? null : (
            <Text label="answer text">{answer.text}</Text>
          )}
          {answer?.tool_calls === undefined ? null : <Calls calls={answer.tool_calls} />}
          {answer === undefined ? <p class="muted">No answer recorded.</p> : null}
          <ErrorField error={answer?.error} />
        </div>
      </Section>
    </>
  );
}

/** What a request's section says: how many messages are new, and whether a feature rewrote it. */
function requestTitle(start: TraceEventOf<'llm_start'>): string {
  const history =
    start.from_history === undefined ? '' : `, after ${start.from_history} of the run's history`;
  const counts = `Request: ${start.messages.length} new of ${start.message_count} messages${history}`;
  return start.kept === undefined
    ? counts
    : `${counts}; a feature rewrote the messages after the first ${start.kept}`;
}
