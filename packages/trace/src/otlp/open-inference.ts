/**
 * The OpenInference attributes (Arize Phoenix reads these) added beside the GenAI ones when an
 * exporter is asked for them (`openInference: true`). Phoenix reads the GenAI conventions of
 * agent, model and tool spans itself (their kind, messages, tokens); what it does not read is a
 * run's own span (`invoke_workflow`): this names its kind, and with content captured gives it the
 * run's input and output, which Phoenix lists each trace by. Every GenAI span also gets its
 * OpenInference kind and the session, so a trace's spans are grouped as its run.
 */
import {
  MimeType,
  OpenInferenceSpanKind,
  SemanticConventions as oi,
} from '@arizeai/openinference-semantic-conventions';
import { ConfigurationError, type TraceEvent } from '@agent-trace/core';
import type { Attributes } from '@opentelemetry/api';
import { semconv, type SpanAttributes } from './semconv.js';

const kinds: Readonly<Record<string, OpenInferenceSpanKind>> = {
  invoke_workflow: OpenInferenceSpanKind.CHAIN,
  invoke_agent: OpenInferenceSpanKind.AGENT,
  create_agent: OpenInferenceSpanKind.AGENT,
  chat: OpenInferenceSpanKind.LLM,
  text_completion: OpenInferenceSpanKind.LLM,
  generate_content: OpenInferenceSpanKind.LLM,
  execute_tool: OpenInferenceSpanKind.TOOL,
};

/** A value as `input.value` / `output.value` hold it, with its mime type. */
function valueOf(value: unknown): { value: string; mime: MimeType } {
  return typeof value === 'string'
    ? { value, mime: MimeType.TEXT }
    : { value: JSON.stringify(value), mime: MimeType.JSON };
}

/**
 * Adds the OpenInference attributes of a span to `attributes`, which holds its GenAI ones; the
 * run's input and output with `captured` content only.
 */
export function addOpenInference(
  start: TraceEvent,
  end: TraceEvent,
  attributes: SpanAttributes,
  captured: boolean,
): void {
  const operation = attributes[semconv.operationName];
  const kind = typeof operation === 'string' ? kinds[operation] : undefined;
  if (kind === undefined) return;
  const added: Attributes = {
    [oi.OPENINFERENCE_SPAN_KIND]: kind,
    [oi.SESSION_ID]: start.session,
  };
  if (captured && start.event === 'run_start' && end.event === 'run_end') {
    const input = valueOf(start.input);
    added[oi.INPUT_VALUE] = input.value;
    added[oi.INPUT_MIME_TYPE] = input.mime;
    if (end.output !== undefined) {
      const output = valueOf(end.output);
      added[oi.OUTPUT_VALUE] = output.value;
      added[oi.OUTPUT_MIME_TYPE] = output.mime;
    }
  }
  Object.assign(attributes, added);
}

/**
 * Whether the environment asks for the OpenInference attributes: `TRACE_OTLP_OPENINFERENCE` set
 * to `true` (`false` or unset: no). For a program that exports without a code change
 * (`node --import @agent-trace/trace/register`) and for `agent-trace export`; an exporter's own
 * `openInference` option wins over it.
 */
export function openInferenceFromEnvironment(
  environment: NodeJS.ProcessEnv = process.env,
): boolean {
  const value = environment.TRACE_OTLP_OPENINFERENCE;
  if (value === undefined || value === '') return false;
  const flag = value.toLowerCase();
  if (flag === 'true' || flag === 'false') return flag === 'true';
  throw new ConfigurationError({
    option: 'openInference',
    message: `TRACE_OTLP_OPENINFERENCE is '${value}': set it to true (add the OpenInference attributes Arize Phoenix reads) or false, or unset it.`,
  });
}
