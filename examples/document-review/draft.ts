/** The draft the demo reviews. */
export const draft =
  'Tracing makes agents  observable. Every every model call and tool call becomes a span.';

/** The draft after the desk's edits. */
export const revisedDraft =
  'Tracing makes agents observable. Every model call and tool call becomes a span (W3C Trace Context; OpenTelemetry GenAI conventions).';
