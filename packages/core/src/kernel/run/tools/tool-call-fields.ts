import type { ToolCallOutcome } from '../../tool/execute-tool-call.js';
import type { TraceEventFields } from '../../trace/run-tracer.js';
import type { Writable } from '../../util/writable.js';
import type { PendingCall } from './tool-phase.js';
import { sameJson } from '../../util/same-json.js';
import { toTraceError } from '../frame/to-trace-error.js';

/** The fields of `tool_start`, built without spreads (a hot path: see llm-event-fields.ts). */
export function toolStartFields(pending: PendingCall): TraceEventFields<'tool_start'> {
  const fields: Writable<TraceEventFields<'tool_start'>> = {
    tool: pending.call.toolName,
    call_id: pending.call.callId,
    args: pending.args,
  };
  if (pending.attempt > 1) fields.attempt = pending.attempt;
  if (pending.server !== undefined) fields.mcp_server = pending.server;
  if (pending.thought !== undefined) fields.thought = pending.thought;
  return fields;
}

/** The fields of `tool_end`: the result, or the error. */
export function toolEndFields(
  pending: PendingCall,
  outcome: ToolCallOutcome,
): Omit<TraceEventFields<'tool_end'>, 'duration_ms'> {
  const fields: Writable<Omit<TraceEventFields<'tool_end'>, 'duration_ms'>> = {
    tool: pending.call.toolName,
    call_id: pending.call.callId,
    args: outcome.args,
  } as Writable<Omit<TraceEventFields<'tool_end'>, 'duration_ms'>>;
  // What the schema made of the model's arguments, where that is not the same (a default, a transform).
  if (outcome.input !== undefined && !sameJson(outcome.input, outcome.args))
    fields.input = outcome.input;
  // As the tool returned it: a live value it changed since is recorded as it was then.
  if (outcome.ok) fields.result = 'recorded' in outcome ? outcome.recorded : outcome.result;
  else fields.error = toTraceError(outcome.error);
  fields.attempt = pending.attempt; // after the result, as the golden traces have it
  if (pending.server !== undefined) fields.mcp_server = pending.server;
  return fields;
}
