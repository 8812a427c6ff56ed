import type { ApprovalDecision, PendingApproval } from '../kernel/protocol/approval.js';
import { RunAbortedError } from '../kernel/errors/abort-error.js';
import { executeToolCall } from '../kernel/tool/execute-tool-call.js';
import { ToolRegistry } from '../kernel/tool/tool-registry.js';
import type { OpenSpan, RunTracer, TraceEventFields } from '../kernel/trace/run-tracer.js';
import { deadline } from '../kernel/util/deadline.js';
import type { Semaphore } from '../kernel/util/semaphore.js';
import type { StepLock } from './step-lock.js';
import {
  stepVerdict,
  tracedRuns,
  type StepVerdict,
  type WorkflowStepRecord,
  type WorkflowStepStatus,
} from './step-record.js';
import type { Workflow, WorkflowStep } from './workflow.js';
import type { PausedAgentStep } from './workflow-snapshot.js';
import { type RunState, toTraceError, withTracer } from '../kernel/run/frame/runner-api.js';
import type { RecordEvent } from '../kernel/run/seam/feature.js';
import {
  traceApprovalRequested,
  traceApprovalResolved,
} from '../features/approval/approval-events.js';
import {
  agentAttempt,
  type AgentStepResume,
  type AttemptOptions,
  type Outcome,
} from './workflow-agent-step.js';
import { defined } from '../kernel/util/defined.js';
import { asJsonValue } from '../kernel/util/json-collections.js';

/** How the attempts of a step's tool or agent ended: the last attempt's outcome, and how many. */
type Attempted = Outcome & { readonly attempts: number };

/** What a step runs in: its workflow and span, the ended steps, the run, the concurrency limit. */
export interface StepContext {
  readonly workflow: Workflow;
  readonly workflowSpan: OpenSpan;
  readonly records: ReadonlyMap<string, WorkflowStepRecord>;
  readonly input: unknown;
  /** The run's state, writing to this step's own view of the trace. */
  readonly state: RunState;
  readonly semaphore: Semaphore;
  /** Keeps a step that may not run in parallel alone. */
  readonly lock: StepLock;
  /** A person's decision on this (approval) step, when the run resumes with one. */
  readonly decision?: ApprovalDecision;
  /** Where an approval step that waits is reported, and the calls a paused agent step waits for. */
  readonly pending: PendingApproval[];
  /** An agent step that paused before, going on: its paused turn and the decisions on its calls. */
  readonly resumed?: AgentStepResume;
  /** Where an agent step that pauses leaves its paused turn, by step name. */
  readonly paused: Map<string, PausedAgentStep>;
}

/**
 * Runs one step whose dependencies have ended, inside its `workflow_step_start` /
 * `workflow_step_end`: skipped (with why), waiting for or resolved by a person, or its tool or
 * agent run once per item with retries and a timeout per attempt. Undefined when it waits
 * behind a step that waits for approval, or the run was aborted: it has no span then. Never
 * throws but for an abort.
 */
export function runWorkflowStep(
  step: WorkflowStep,
  context: StepContext,
): Promise<WorkflowStepRecord | undefined> {
  // A rerun holds a step until the place the recorded workflow started it (see RunOverrides.pace).
  const { pace } = context.state.overrides;
  const paced =
    pace === undefined
      ? undefined
      : pace({
          agent: context.workflow.name,
          agentSpanId: context.workflowSpan.spanId,
          kind: 'workflow_step',
          step: context.workflow.steps.indexOf(step),
        });
  return paced === undefined
    ? decidedStep(step, context)
    : paced.then(() => decidedStep(step, context));
}

/** Runs a step the workflow decided to start, unless the run was stopped meanwhile. */
function decidedStep(
  step: WorkflowStep,
  context: StepContext,
): Promise<WorkflowStepRecord | undefined> {
  // Not async itself: each layer of promises costs a step more than deciding it.
  if (context.state.signal?.aborted === true) return Promise.resolve(undefined); // start nothing
  const verdict = stepVerdict(step, context.records, context.input);
  if (!verdict.run && 'waits' in verdict) return Promise.resolve(undefined);
  // A step that runs its tool or agent waits its turn before its span starts.
  if (!verdict.run || step.runs.kind === 'approval') return tracedStep(step, verdict, context);
  return tracedStep(step, verdict, context, !step.parallel);
}

/** A step inside its span; one that runs its tool or agent holds the lock (`alone` or shared). */
async function tracedStep(
  step: WorkflowStep,
  verdict: Exclude<StepVerdict, { readonly waits: true }>,
  context: StepContext,
  alone?: boolean,
): Promise<WorkflowStepRecord> {
  // The lock is taken and given back here, not by a function of its own: a layer of promises
  // fewer in every step. Its span starts once the step's turn has come.
  const turn = alone === undefined ? undefined : context.lock.enter(alone);
  if (turn !== undefined) await turn;
  let span: OpenSpan;
  try {
    span = startStep(step, verdict, context);
  } catch (error) {
    if (alone !== undefined) context.lock.leave(alone);
    throw error;
  }
  const { tracer } = context.state;
  let record: WorkflowStepRecord = { name: step.name, status: 'failed', attempts: 0 };
  try {
    if (!verdict.run)
      record = { name: step.name, status: 'skipped', attempts: 0, reason: verdict.reason };
    else if (step.runs.kind === 'approval')
      record = approvalStep(step, step.runs.prompt, verdict.input, span, context);
    else record = pausedOr(step, await runItems(step, verdict.input, span, context), context);
    return record;
  } catch (error) {
    record = { ...record, error: toTraceError(error) };
    throw error;
  } finally {
    try {
      endStep(tracer, span, record);
    } finally {
      if (alone !== undefined) context.lock.leave(alone);
    }
  }
}

function startStep(
  step: WorkflowStep,
  verdict: Exclude<StepVerdict, { readonly waits: true }>,
  context: StepContext,
): OpenSpan {
  const fields = {
    workflow: context.workflow.name,
    name: step.name,
    runs: tracedRuns(step),
    input: verdict.run ? verdict.input : null,
  };
  return context.state.tracer.start(
    'workflow_step_start',
    context.workflow.name,
    context.workflowSpan,
    verdict.run && step.forEach !== undefined && Array.isArray(verdict.input)
      ? { ...fields, items: verdict.input.length }
      : fields,
  );
}

type StepEndFields = Omit<TraceEventFields<'workflow_step_end'>, 'duration_ms'>;

function endStep(tracer: RunTracer, span: OpenSpan, record: WorkflowStepRecord): void {
  // Field by field, in the order written: a spread a field costs every step.
  const fields: Partial<StepEndFields> = {
    workflow: span.agent,
    name: record.name,
    status: record.status,
  };
  // As a JSON trace reads it back (a Map's entries, a sparse array's holes null), as a tool's
  // result is recorded.
  if (record.output !== undefined)
    fields.output = tracer.recording ? asJsonValue(record.output) : record.output;
  if (record.error !== undefined) fields.error = record.error;
  fields.attempts = record.attempts;
  if (record.reason !== undefined) fields.reason = record.reason;
  tracer.end(span as OpenSpan<'workflow_step_start'>, fields as StepEndFields);
}

/**
 * The record of a step's attempts; an agent step whose agent asked for approval waits
 * (`interrupted`): its calls are reported pending and its paused turn kept for the resume.
 */
function pausedOr(
  step: WorkflowStep,
  attempted: Attempted,
  context: StepContext,
): WorkflowStepRecord {
  if (attempted.ok || attempted.paused === undefined) return recordOf(step.name, attempted);
  context.pending.push(...attempted.paused.pending);
  context.paused.set(step.name, {
    step: step.name,
    turn: attempted.paused,
    attempt: attempted.attempts,
  });
  return { name: step.name, status: 'interrupted', attempts: attempted.attempts };
}

function recordOf(name: string, attempted: Attempted): WorkflowStepRecord {
  const status: WorkflowStepStatus = attempted.ok ? 'completed' : 'failed';
  return attempted.ok
    ? { name, status, output: attempted.output, attempts: attempted.attempts }
    : { name, status, error: attempted.error, attempts: attempted.attempts };
}

/**
 * An approval step: without a decision it waits (`approval_requested`, status `interrupted`); with
 * one it is resolved (`approval_resolved`): approved or edited, it completes with the decision as
 * its output; rejected, it fails.
 */
function approvalStep(
  step: WorkflowStep,
  prompt: string,
  input: unknown,
  span: OpenSpan,
  context: StepContext,
): WorkflowStepRecord {
  const { tracer } = context.state;
  const { decision } = context;
  const approval: PendingApproval = {
    callId: step.name,
    toolName: step.name,
    kind: 'workflow_step',
    agent: context.workflow.name,
    args: { prompt, input },
  };
  const record: RecordEvent = (name, fields) => tracer.point(name, span, fields);
  if (decision === undefined) {
    traceApprovalRequested(record, approval);
    context.pending.push(approval);
    return { name: step.name, status: 'interrupted', attempts: 0 };
  }
  traceApprovalResolved(record, approval, decision);
  if (decision.decision === 'reject') {
    const message = `${decision.by ?? 'a person'} rejected step '${step.name}'${decision.reason === undefined ? '' : `: ${decision.reason}`}`;
    return { name: step.name, status: 'failed', error: { type: 'rejected', message }, attempts: 1 };
  }
  const output = {
    approved: true,
    ...defined('by', decision.by),
    ...defined('reason', decision.reason),
    ...(decision.decision === 'edit' ? { value: decision.args } : {}),
  };
  return { name: step.name, status: 'completed', output, attempts: 1 };
}

/**
 * Runs a step's tool or agent on its input, or, for a `forEach` step, on each item of its list
 * at the same time (each in its own view of the trace, delivered in item order).
 */
function runItems(
  step: WorkflowStep,
  input: unknown,
  span: OpenSpan,
  context: StepContext,
): Promise<Attempted> {
  return step.forEach === undefined
    ? runWithRetries(step, input, step.name, span, context.state, context)
    : runEach(step, step.forEach.text, input, span, context);
}

async function runEach(
  step: WorkflowStep,
  forEach: string,
  input: unknown,
  span: OpenSpan,
  context: StepContext,
): Promise<Attempted> {
  if (!Array.isArray(input)) {
    const got = input === null ? 'null' : typeof input;
    const message = `step '${step.name}' runs for each item of ${forEach}, which must be a list (it is ${got}). Name a list there, e.g. steps.<name>.output.rows.`;
    return { ok: false, error: { type: 'invalid_input', message }, attempts: 0 };
  }
  const views = input.map(() => context.state.tracer.capture());
  // Every item settles before the views are written, a stop's cut items too: their events are
  // part of the trace (a view written before its item ends would lose what came after).
  const settled = await Promise.allSettled(
    input.map((item, index) =>
      runWithRetries(
        step,
        item,
        `${step.name}#${index + 1}`,
        span,
        withTracer(context.state, views[index] as RunTracer),
        context,
      ),
    ),
  );
  for (const view of views) view.commit();
  const results = settled.map(outcome => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
  const attempts = Math.max(0, ...results.map(result => result.attempts));
  const pausedAt = results.findIndex(result => !result.ok && result.paused !== undefined);
  const waiting = results[pausedAt];
  if (waiting !== undefined && !waiting.ok) {
    const message = `item ${pausedAt + 1}: ${waiting.error.message}, which an item of a for_each step cannot wait for: run the agent without for_each, or put an approval step before it.`;
    return { ok: false, error: { type: 'awaiting_approval', message }, attempts };
  }
  const failedAt = results.findIndex(result => !result.ok);
  const failed = results[failedAt];
  if (failed !== undefined && !failed.ok)
    return {
      ok: false,
      error: { type: failed.error.type, message: `item ${failedAt + 1}: ${failed.error.message}` },
      attempts,
    };
  return { ok: true, output: results.map(result => (result.ok ? result.output : null)), attempts };
}

async function runWithRetries(
  step: WorkflowStep,
  item: unknown,
  callId: string,
  span: OpenSpan,
  state: RunState,
  context: StepContext,
): Promise<Attempted> {
  let last: Attempted = { ok: false, error: { type: 'error', message: 'not run' }, attempts: 0 };
  // A paused agent step goes on as the attempt that paused.
  const { resumed } = context;
  for (let attempt = resumed?.attempt ?? 1; attempt <= step.retries + 1; attempt++) {
    const { workflow } = context;
    const options: AttemptOptions =
      attempt === resumed?.attempt
        ? { callId, attempt, span, state, workflow, resumed }
        : { callId, attempt, span, state, workflow };
    // The semaphore taken and given back here, not through a function of its own: a layer of
    // promises fewer in every step.
    const place = context.semaphore.enter();
    if (place !== undefined) await place;
    let result: Outcome;
    try {
      result = await attemptOnce(step, item, options);
    } finally {
      context.semaphore.leave();
    }
    last = attempted(result, attempt); // built field by field: a spread of either shape is slow
    // Done, or waiting for a person: a pause is no failure to retry.
    if (last.ok || last.paused !== undefined) return last;
  }
  return last;
}

function attempted(outcome: Outcome, attempts: number): Attempted {
  if (outcome.ok) return { ok: true, output: outcome.output, attempts };
  return outcome.paused === undefined
    ? { ok: false, error: outcome.error, attempts }
    : { ok: false, error: outcome.error, paused: outcome.paused, attempts };
}

/** One run of the step's tool or agent, under the step's timeout and the run's signal. */
function attemptOnce(step: WorkflowStep, item: unknown, options: AttemptOptions): Promise<Outcome> {
  if (step.timeoutMs === undefined)
    return step.runs.kind === 'tool'
      ? toolAttempt(step, item, options.state.signal, options)
      : agentAttempt(step, item, options.state.signal, options);
  return timedAttempt(step, item, options);
}

async function timedAttempt(
  step: WorkflowStep,
  item: unknown,
  options: AttemptOptions,
): Promise<Outcome> {
  const limit = deadline(
    options.state.signal,
    step.timeoutMs,
    () => `step '${step.name}' timed out`,
  );
  try {
    return step.runs.kind === 'tool'
      ? await toolAttempt(step, item, limit.signal, options)
      : await agentAttempt(step, item, limit.signal, options);
  } catch (error) {
    if (!(error instanceof RunAbortedError) || !limit.passed() || options.state.signal?.aborted)
      throw error;
    const message = `step '${step.name}' timed out after ${step.timeoutMs} ms`;
    return { ok: false, error: { type: 'timeout', message } };
  } finally {
    limit.clear();
  }
}

/** Registries of the tools workflow steps call, made once per tool. */
const registries = new WeakMap<object, ToolRegistry>();

async function toolAttempt(
  step: WorkflowStep,
  item: unknown,
  signal: AbortSignal | undefined,
  { callId, attempt, span, state, workflow }: AttemptOptions,
): Promise<Outcome> {
  if (step.runs.kind !== 'tool') throw new TypeError('not a tool step');
  const { tool } = step.runs;
  let registry = registries.get(tool);
  if (registry === undefined) {
    registry = new ToolRegistry([tool], { owner: workflow.name });
    registries.set(tool, registry);
  }
  const toolSpan = state.tracer.start(
    'tool_start',
    workflow.name,
    span,
    attempt > 1
      ? { tool: tool.name, call_id: callId, args: item, attempt }
      : { tool: tool.name, call_id: callId, args: item },
  );
  let outcome: Outcome | undefined;
  try {
    const { tool: override } = state.overrides;
    const called = await state.tracer.within(toolSpan, () =>
      executeToolCall({
        registry,
        call: { callId, toolName: tool.name, argumentsText: '' },
        parsed: { ok: true, value: item },
        agentName: workflow.name,
        abortSignal: signal,
        clock: state.clock,
        traceHeaders: () => state.tracer.traceHeaders(toolSpan),
        recording: state.tracer.recording,
        ...(override === undefined
          ? {}
          : {
              runTool: (args, execute) =>
                override(
                  { agentName: workflow.name, toolName: tool.name, callId, args, modelArgs: item },
                  execute,
                ),
            }),
      }),
    );
    outcome = called.ok
      ? { ok: true, output: called.result }
      : { ok: false, error: { type: called.error.kind, message: called.error.message } };
    return outcome;
  } finally {
    const { name } = tool;
    const { recording } = state.tracer;
    state.tracer.end(
      toolSpan,
      outcome?.ok === true
        ? {
            tool: name,
            call_id: callId,
            args: item,
            result: recording ? asJsonValue(outcome.output) : outcome.output,
            attempt,
          }
        : {
            tool: name,
            call_id: callId,
            args: item,
            error:
              outcome === undefined
                ? { type: 'aborted', message: `step '${step.name}' was stopped` }
                : outcome.error,
            attempt,
          },
    );
  }
}
