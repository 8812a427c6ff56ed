import type { ApprovalDecision, PendingApproval } from '../approval/approval.js';
import { RunAbortedError } from '../errors/abort-error.js';
import { executeToolCall } from '../tool/execute-tool-call.js';
import { ToolRegistry } from '../tool/tool-registry.js';
import type { OpenSpan, RunTracer } from '../trace/run-tracer.js';
import { deadline } from '../util/deadline.js';
import type { Semaphore } from '../util/semaphore.js';
import {
  stepVerdict,
  tracedRuns,
  type WorkflowStepRecord,
  type WorkflowStepStatus,
} from '../workflow/step-record.js';
import type { Workflow, WorkflowStep } from '../workflow/workflow.js';
import { agentOutcome } from './agent-outcome.js';
import type { RunState } from './run-state.js';
import { traceApprovalRequested, traceApprovalResolved } from './approval-events.js';
import { toTraceError } from './to-trace-error.js';

type StepError = { readonly type: string; readonly message: string };

/** How one run of a step's tool or agent ended. */
type Attempted =
  | { readonly ok: true; readonly output: unknown; readonly attempts: number }
  | { readonly ok: false; readonly error: StepError; readonly attempts: number };

/** What a step runs in: its workflow and span, the ended steps, the run, the concurrency limit. */
export interface StepContext {
  readonly workflow: Workflow;
  readonly workflowSpan: OpenSpan;
  readonly records: ReadonlyMap<string, WorkflowStepRecord>;
  readonly input: unknown;
  /** The run's state, writing to this step's own view of the trace. */
  readonly state: RunState;
  readonly semaphore: Semaphore;
  /** A person's decision on this (approval) step, when the run resumes with one. */
  readonly decision?: ApprovalDecision;
  /** Where an approval step that waits is reported. */
  readonly pending: PendingApproval[];
}

/**
 * Runs one step whose dependencies have ended, inside its `workflow_step_start` /
 * `workflow_step_end`: skipped (with why), waiting for or resolved by a person, or its tool or
 * agent run once per item with retries and a timeout per attempt. Undefined when it waits
 * behind a step that waits for approval, or the run was aborted: it has no span then. Never
 * throws but for an abort.
 */
export async function runWorkflowStep(
  step: WorkflowStep,
  context: StepContext,
): Promise<WorkflowStepRecord | undefined> {
  if (context.state.signal?.aborted === true) return undefined; // the run stops: start nothing
  const verdict = stepVerdict(step, context.records, context.input);
  if (!verdict.run && 'waits' in verdict) return undefined;
  const { tracer } = context.state;
  const span = tracer.start('workflow_step_start', context.workflow.name, context.workflowSpan, {
    workflow: context.workflow.name,
    name: step.name,
    runs: tracedRuns(step),
    input: verdict.run ? verdict.input : null,
    ...(verdict.run && step.parallel && Array.isArray(verdict.input)
      ? { items: verdict.input.length }
      : {}),
  });
  let record: WorkflowStepRecord = { name: step.name, status: 'failed', attempts: 0 };
  try {
    if (!verdict.run)
      record = { name: step.name, status: 'skipped', attempts: 0, reason: verdict.reason };
    else if (step.runs.kind === 'approval')
      record = approvalStep(step, step.runs.prompt, verdict.input, span, context);
    else record = recordOf(step.name, await runItems(step, verdict.input, span, context));
    return record;
  } catch (error) {
    record = { ...record, error: toTraceError(error) };
    throw error;
  } finally {
    endStep(tracer, span, record);
  }
}

function endStep(tracer: RunTracer, span: OpenSpan, record: WorkflowStepRecord): void {
  tracer.end(span as OpenSpan<'workflow_step_start'>, {
    workflow: span.agent,
    name: record.name,
    status: record.status,
    ...(record.output === undefined ? {} : { output: record.output }),
    ...(record.error === undefined ? {} : { error: record.error }),
    attempts: record.attempts,
    ...(record.reason === undefined ? {} : { reason: record.reason }),
  });
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
  if (decision === undefined) {
    traceApprovalRequested(tracer, span, approval);
    context.pending.push(approval);
    return { name: step.name, status: 'interrupted', attempts: 0 };
  }
  traceApprovalResolved(tracer, span, approval, decision);
  if (decision.decision === 'reject') {
    const message = `${decision.by ?? 'a person'} rejected step '${step.name}'${decision.reason === undefined ? '' : `: ${decision.reason}`}`;
    return { name: step.name, status: 'failed', error: { type: 'rejected', message }, attempts: 1 };
  }
  const output = {
    approved: true,
    ...(decision.by === undefined ? {} : { by: decision.by }),
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
    ...(decision.decision === 'edit' ? { value: decision.args } : {}),
  };
  return { name: step.name, status: 'completed', output, attempts: 1 };
}

/**
 * Runs a step's tool or agent on its input, or, for a parallel step, on each item of its input
 * at the same time (each in its own view of the trace, delivered in item order).
 */
async function runItems(
  step: WorkflowStep,
  input: unknown,
  span: OpenSpan,
  context: StepContext,
): Promise<Attempted> {
  if (!step.parallel) return runWithRetries(step, input, step.name, span, context.state, context);
  if (!Array.isArray(input)) {
    const got = input === null ? 'null' : typeof input;
    const message = `step '${step.name}' is parallel, so its input must be a list to run once per item (it is ${got}). Give it a list, or set parallel: false.`;
    return { ok: false, error: { type: 'invalid_input', message }, attempts: 0 };
  }
  const views = input.map(() => context.state.tracer.capture());
  const results = await Promise.all(
    input.map((item, index) =>
      runWithRetries(
        step,
        item,
        `${step.name}#${index + 1}`,
        span,
        {
          ...context.state,
          tracer: views[index] as RunTracer,
        },
        context,
      ),
    ),
  );
  for (const view of views) view.commit();
  const attempts = Math.max(0, ...results.map(result => result.attempts));
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
  for (let attempt = 1; attempt <= step.retries + 1; attempt++) {
    const result = await context.semaphore.run(() =>
      attemptOnce(step, item, { callId, attempt, span, state, workflow: context.workflow }),
    );
    last = result.ok
      ? { ok: true, output: result.output, attempts: attempt }
      : { ok: false, error: result.error, attempts: attempt };
    if (last.ok) return last;
  }
  return last;
}

interface AttemptOptions {
  readonly callId: string;
  readonly attempt: number;
  readonly span: OpenSpan;
  readonly state: RunState;
  readonly workflow: Workflow;
}

type Outcome = { ok: true; output: unknown } | { ok: false; error: StepError };

/** One run of the step's tool or agent, under the step's timeout and the run's signal. */
async function attemptOnce(
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
  const registry = registries.get(tool) ?? new ToolRegistry([tool], { owner: workflow.name });
  registries.set(tool, registry);
  const toolSpan = state.tracer.start('tool_start', workflow.name, span, {
    tool: tool.name,
    call_id: callId,
    args: item,
    ...(attempt > 1 ? { attempt } : {}),
  });
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
        ...(override === undefined
          ? {}
          : {
              runTool: (args, execute) =>
                override({ agentName: workflow.name, toolName: tool.name, callId, args }, execute),
            }),
      }),
    );
    outcome = called.ok
      ? { ok: true, output: called.result }
      : { ok: false, error: { type: called.error.kind, message: called.error.message } };
    return outcome;
  } finally {
    state.tracer.end(toolSpan, {
      tool: tool.name,
      call_id: callId,
      args: item,
      ...(outcome === undefined
        ? { error: { type: 'aborted', message: `step '${step.name}' was stopped` } }
        : outcome.ok
          ? { result: outcome.output }
          : { error: outcome.error }),
      attempt,
    });
  }
}

async function agentAttempt(
  step: WorkflowStep,
  item: unknown,
  signal: AbortSignal | undefined,
  { span, state }: AttemptOptions,
): Promise<Outcome> {
  if (step.runs.kind !== 'agent') throw new TypeError('not an agent step');
  const { agent } = step.runs;
  const input = typeof item === 'string' ? item : JSON.stringify(item, null, 2);
  const outcome = await agentOutcome(agent, { input, messages: [], path: [agent.name] }, span, {
    ...state,
    signal,
  });
  if (signal?.aborted === true) throw new RunAbortedError({ reason: signal.reason });
  if (outcome.paused !== undefined)
    return {
      ok: false,
      error: {
        type: 'awaiting_approval',
        message: `agent '${agent.name}' asked for approval of ${outcome.paused.pending.map(pending => `'${pending.toolName}'`).join(', ')}, which a workflow's agent step cannot wait for: use an approval step before it instead.`,
      },
    };
  if (outcome.stopReason !== 'completed')
    return {
      ok: false,
      error: {
        type: outcome.stopReason,
        message: `agent '${agent.name}' stopped with ${outcome.stopReason}${outcome.detail === undefined ? '' : `: ${outcome.detail}`}`,
      },
    };
  return {
    ok: true,
    output: outcome.decoded === undefined ? outcome.output : outcome.decoded.value,
  };
}
