const contentValues = new Set(['true', 'span_only', 'span_and_event']);

/**
 * Whether the environment asks for message content on spans: the GenAI conventions'
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` set to `true`, `SPAN_ONLY` or `SPAN_AND_EVENT`.
 */
export function contentCaptureFromEnvironment(
  environment: NodeJS.ProcessEnv = process.env,
): boolean {
  return contentValues.has(
    (environment.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT ?? '').toLowerCase(),
  );
}
