/** The draft the demo reviews. */
export const draft =
  'Tracing makes agents  observable. Every every model call and tool call becomes a span.';
