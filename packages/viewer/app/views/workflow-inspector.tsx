import type { TraceEvent, TraceEventOf } from '@agent-trace/core';
import { pretty } from '../../src/format.js';
import { planReasons } from '@agent-trace/trace/model';
import type { Row } from '../model/run-model.js';
import { ErrorField, Field, Section, Text, Timing } from './inspector-parts.js';

/** What a workflow or a step was given, and what it gave back once it ended. */
function InputOutput({ input, output }: { input: unknown; output: unknown }) {
  return (
    <>
      <Section title="Input">
        <Text>{pretty(input)}</Text>
      </Section>
      {output === undefined ? null : (
        <Section title="Output">
          <Text>{pretty(output)}</Text>
        </Section>
      )}
    </>
  );
}

/** A workflow: its steps as declared (what each runs, after what, when), and how it ended. */
export function WorkflowView({
  start,
  end,
  row,
}: {
  start: TraceEventOf<'workflow_start'>;
  end: TraceEvent | undefined;
  row: Row;
}) {
  const ended = end?.event === 'workflow_end' ? end : undefined;
  return (
    <>
      <Field name="workflow">{start.workflow}</Field>
      {start.plan_revision === undefined ? null : (
        <Field name="plan">revision {start.plan_revision}</Field>
      )}
      <Timing row={row} />
      {ended === undefined ? null : (
        <Field name="status">
          {ended.status} · {ended.steps.completed} completed, {ended.steps.failed} failed,{' '}
          {ended.steps.skipped} skipped
        </Field>
      )}
      <ErrorField error={ended?.error} />
      <Section title="Steps">
        <ol class="workflow-steps" aria-label="Workflow steps">
          {start.steps.map(step => (
            <li>
              <strong>{step.name}</strong> · {step.runs.kind}
              {step.runs.name === undefined ? '' : ` ${step.runs.name}`}
              {step.depends_on.length === 0 ? '' : ` · after ${step.depends_on.join(', ')}`}
              {step.for_each === undefined ? '' : ` · for each of ${step.for_each}`}
              {step.parallel === false ? ' · alone' : ''}
              {/* Traces written before for_each marked a fan-out with parallel: true. */}
              {step.parallel === true ? ' · once per item' : ''}
              {step.condition === undefined ? '' : ` · when ${step.condition}`}
            </li>
          ))}
        </ol>
      </Section>
      <InputOutput input={start.input} output={ended?.output} />
    </>
  );
}

/** A workflow step: what it ran, on what, and how it ended (its output, error or why skipped). */
export function WorkflowStepView({
  start,
  end,
  row,
}: {
  start: TraceEventOf<'workflow_step_start'>;
  end: TraceEvent | undefined;
  row: Row;
}) {
  const ended = end?.event === 'workflow_step_end' ? end : undefined;
  return (
    <>
      <Field name="step">{start.name}</Field>
      <Field name="runs">
        {start.runs.kind}
        {start.runs.name === undefined ? '' : ` ${start.runs.name}`}
        {start.items === undefined ? '' : ` · ${start.items} items at once`}
      </Field>
      <Timing row={row} />
      {ended === undefined ? null : (
        <>
          <Field name="status">{ended.status}</Field>
          <Field name="attempts">{ended.attempts}</Field>
          {ended.reason === undefined ? null : <Field name="why">{ended.reason}</Field>}
        </>
      )}
      <ErrorField error={ended?.error} />
      <InputOutput input={start.input} output={ended?.output} />
    </>
  );
}

/** A planner's plan: accepted or refused (with the problems it was told), and the plan itself. */
export function PlanView({ event }: { event: TraceEventOf<'plan'> }) {
  return (
    <>
      <Field name="revision">{event.revision}</Field>
      <Field name="asked after">{planReasons[event.reason]}</Field>
      <Field name="verdict">{event.verdict}</Field>
      {event.problems === undefined ? null : (
        <Section title="Problems told to the planner">
          <Text label="Plan problems">{event.problems.join('\n')}</Text>
        </Section>
      )}
      <Section title="Plan">
        <Text label="Plan">{typeof event.plan === 'string' ? event.plan : pretty(event.plan)}</Text>
      </Section>
    </>
  );
}
