import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { errorText } from '@agent-trace/trace/model';
import { count, dollars, duration, pretty } from '../../src/format.js';
import type { Row, RowEvents, RunModel } from '../model/run-model.js';
import { ErrorField, Field, Section, Text, Timing } from './inspector-parts.js';
import { PlanView, WorkflowStepView, WorkflowView } from './workflow-inspector.js';
import { PlainSpanView } from './plain-span-inspector.js';
import { Evaluations } from './response-fields.js';
import { ModelCall } from './model-call-inspector.js';
import { FeatureEventView } from './feature-event-inspector.js';

function ToolCallView({
  start,
  end,
  row,
  run,
}: {
  start: TraceEventOf<'tool_start'>;
  end: TraceEvent | undefined;
  row: Row;
  run: RunModel;
}) {
  const done = end?.event === 'tool_end' ? end : undefined;
  const attempts = run.events.filter(
    (event): event is TraceEventOf<'tool_end'> =>
      event.event === 'tool_end' &&
      event.call_id === start.call_id &&
      event.tool === start.tool &&
      event.parent_span_id === start.parent_span_id,
  );
  return (
    <>
      <Field name="tool">{start.tool}</Field>
      <Field name="call">{start.call_id}</Field>
      {start.mcp_server === undefined ? null : (
        <Field name="MCP server">
          {start.mcp_server.name} ({start.mcp_server.transport})
        </Field>
      )}
      <Timing row={row} />
      {start.thought === undefined ? null : (
        <Section title="Thought">
          <Text>{start.thought}</Text>
        </Section>
      )}
      <Section title="Arguments">
        <Text>{pretty(start.args)}</Text>
      </Section>
      <Section title={done?.error === undefined ? 'Result' : 'Error'}>
        <div data-testid="tool-result">
          {done === undefined ? (
            <p class="muted">No result recorded.</p>
          ) : done.error === undefined ? (
            <Text>{pretty(done.result)}</Text>
          ) : (
            <ErrorField error={done.error} />
          )}
        </div>
      </Section>
      {attempts.length > 1 ? (
        <Section title="Attempts">
          {attempts.map(attempt => (
            <Field name={`attempt ${attempt.attempt}`}>
              {attempt.error === undefined ? 'ok' : errorText(attempt.error)} ·{' '}
              {duration(attempt.duration_ms)}
            </Field>
          ))}
        </Section>
      ) : null}
    </>
  );
}

function Handoff({
  start,
  end,
  row,
}: {
  start: TraceEventOf<'handoff_start'>;
  end: TraceEvent | undefined;
  row: Row;
}) {
  return (
    <>
      <Field name="from">{start.from}</Field>
      <Field name="to">{start.to}</Field>
      <Field name="depth">{start.depth}</Field>
      <Field name="mode">
        {start.mode} (
        {start.mode === 'pass_control' ? 'handoff' : 'delegation: returns to the caller'})
      </Field>
      {start.path === undefined ? null : <Field name="path">{start.path.join(' → ')}</Field>}
      {start.routed_by === undefined ? null : (
        <Field name="routed by">
          {start.routed_by}
          {start.route_reason === undefined ? '' : `: ${start.route_reason}`}
        </Field>
      )}
      <Timing row={row} />
      <ErrorField error={end?.event === 'handoff_end' ? end.error : undefined} />
    </>
  );
}

function Stop({ end }: { end: TraceEventOf<'agent_end'> | TraceEventOf<'run_end'> }) {
  return (
    <>
      <Field name="stop">{end.stop_reason}</Field>
      {end.detail === undefined ? null : <Field name="why">{end.detail}</Field>}
      {end.limit === undefined ? null : (
        <Field name="limit">
          {end.limit.name} = {end.limit.value}
        </Field>
      )}
      {end.degraded_tools === undefined ? null : (
        <Field name="degraded">{end.degraded_tools.join(', ')}</Field>
      )}
      {end.cost === undefined ? null : (
        <Field name="cost">
          {dollars(end.cost.usd)}
          {end.cost.unpriced_calls === 0
            ? ''
            : ` + ${count(end.cost.unpriced_calls)} calls of unpriced models (${(end.cost.unpriced_models ?? []).join(', ')})`}
        </Field>
      )}
      <Field name="tokens">
        {count(end.tok_prompt)} in → {count(end.tok_completion)} out
      </Field>
      <ErrorField error={end.error} />
      {end.output === undefined ? null : (
        <Section title="Output">
          <Text>{end.output}</Text>
        </Section>
      )}
    </>
  );
}

function Agent({
  start,
  end,
  row,
}: {
  start: TraceEventOf<'agent_start'>;
  end: TraceEvent | undefined;
  row: Row;
}) {
  return (
    <>
      <Field name="agent">
        {start.agent}
        {start.description === undefined ? '' : ` · ${start.description}`}
      </Field>
      <Field name="model">
        {start.model} <span class="muted">({start.provider})</span>
      </Field>
      {start.path === undefined ? null : <Field name="path">{start.path.join(' → ')}</Field>}
      <Field name="tools">{start.tools.join(', ') || '(none)'}</Field>
      {start.tool_calling === undefined ? null : (
        <Field name="tool calling">{start.tool_calling} (tools in the instructions)</Field>
      )}
      {start.max_steps === undefined ? null : <Field name="max steps">{start.max_steps}</Field>}
      <Timing row={row} />
      {end?.event === 'agent_end' ? (
        <>
          <Field name="steps">{end.steps}</Field>
          {end.handed_off_to === undefined ? null : (
            <Field name="handed off to">{end.handed_off_to}</Field>
          )}
          <Stop end={end} />
        </>
      ) : null}
      <Section title="Instructions">
        <Text>{start.instructions}</Text>
      </Section>
    </>
  );
}

function PointEvent({ event }: { event: TraceEvent }) {
  if (event.event === 'guardrail')
    return (
      <>
        <Field name="guardrail">{event.guardrail}</Field>
        <Field name="stage">{event.stage}</Field>
        <Field name="verdict">{event.verdict}</Field>
        <Section title="Reason">
          <Text>{event.reason}</Text>
        </Section>
        {event.details === undefined ? null : <Text>{pretty(event.details)}</Text>}
      </>
    );
  if (event.event === 'retry')
    return (
      <>
        <Field name="target">
          {event.target} {event.name}
        </Field>
        <Field name="attempt">{event.attempt}</Field>
        <Field name="delay">{duration(event.delay_ms)}</Field>
        {event.fallback === undefined ? null : <Field name="fallback">{event.fallback}</Field>}
        <ErrorField error={event.error} />
      </>
    );
  if (event.event === 'approval_requested')
    return (
      <>
        <Field name="waits for">
          {event.kind} {event.tool}
        </Field>
        <Field name="call">{event.call_id}</Field>
        <Section title="Arguments">
          <Text>{pretty(event.args)}</Text>
        </Section>
      </>
    );
  if (event.event === 'approval_resolved')
    return (
      <>
        <Field name="decision">{event.decision}</Field>
        <Field name="call">
          {event.tool} ({event.call_id})
        </Field>
        {event.by === undefined ? null : <Field name="by">{event.by}</Field>}
        <Field name="when">{event.time}</Field>
        {event.reason === undefined ? null : <Field name="why">{event.reason}</Field>}
        {event.args === undefined ? null : (
          <Section title="Edited arguments">
            <Text>{pretty(event.args)}</Text>
          </Section>
        )}
      </>
    );
  if (event.event === 'feature' || event.event === 'transform')
    return <FeatureEventView event={event} />;
  if (event.event === 'malformed_answer')
    return (
      <>
        <Field name="problem">{event.problem}</Field>
        <Field name="count">{event.count}</Field>
        <Field name="model call">#{event.step}</Field>
        <Section title="Told to the model">
          <Text>{event.message}</Text>
        </Section>
      </>
    );
  return null;
}

function Details({ row, events, run }: { row: Row; events: RowEvents; run: RunModel }) {
  const { start, end } = events;
  switch (start.event) {
    case 'llm_start':
      return <ModelCall start={start} end={end} row={row} />;
    case 'tool_start':
      return <ToolCallView start={start} end={end} row={row} run={run} />;
    case 'handoff_start':
      return <Handoff start={start} end={end} row={row} />;
    case 'agent_start':
      return <Agent start={start} end={end} row={row} />;
    case 'workflow_start':
      return <WorkflowView start={start} end={end} row={row} />;
    case 'workflow_step_start':
      return <WorkflowStepView start={start} end={end} row={row} />;
    case 'plan':
      return <PlanView event={start} />;
    case 'span_start':
      return <PlainSpanView start={start} end={end} row={row} />;
    case 'run_start':
      return (
        <>
          <Field name="run">{start.run}</Field>
          <Field name="session">{start.session}</Field>
          <Timing row={row} />
          <Section title="Input">
            <Text>{start.input}</Text>
          </Section>
          {end?.event === 'run_end' ? <Stop end={end} /> : null}
        </>
      );
    default:
      return <PointEvent event={start} />;
  }
}

/**
 * What a selected span or event holds: its request and answer, arguments and result, and the raw
 * events. `events` is undefined while a served page fetches them.
 */
export function Inspector({
  row,
  events,
  run,
}: {
  row: Row | undefined;
  events: RowEvents | undefined;
  run: RunModel;
}) {
  if (row === undefined)
    return (
      <aside class="inspector" aria-label="Inspector">
        <p class="muted">Click a span to see what it holds.</p>
      </aside>
    );
  return (
    <aside class="inspector" aria-label="Inspector" data-seq={row.seq}>
      <h2>
        <span class={`badge stop-${row.status}`}>{row.kind}</span> {row.title}
      </h2>
      {events === undefined ? (
        <p class="muted pending">Reading its events…</p>
      ) : (
        <>
          <Details row={row} events={events} run={run} />
          <Evaluations run={run} spanId={events.start.span_id} />
          <Section title="Raw events">
            {[events.start, events.end].map(event =>
              event === undefined ? null : (
                <details class="raw">
                  <summary>
                    seq {event.seq} · {event.event}
                  </summary>
                  <Text>{JSON.stringify(event, null, 2)}</Text>
                </details>
              ),
            )}
          </Section>
        </>
      )}
    </aside>
  );
}
