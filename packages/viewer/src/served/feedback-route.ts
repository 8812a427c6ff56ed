import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentTraceError } from '@agent-trace/core';
import { recordFeedback, type FeedbackInput } from '@agent-trace/trace';
import { send, sendJson } from './http.js';
import { notText, postedJson } from './posted-json.js';
import type { RunSource } from './run-sources.js';

/**
 * Records a feedback a served page posts (`{ file, run, score?, label?, comment?, by? }`), into
 * the trace file of the run it judges; only from a page this server served (see `postedJson`).
 */
export async function answerFeedback(
  source: RunSource,
  token: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const fields = await postedJson(token, request, response);
  if (fields === undefined) return;
  const wrong =
    notText(fields, ['file', 'run', 'label', 'comment', 'by']) ??
    (typeof fields.file !== 'string' || typeof fields.run !== 'string'
      ? 'A feedback names the run it judges: its file and run.'
      : fields.score !== undefined && typeof fields.score !== 'number'
        ? "The feedback's score is a number."
        : undefined);
  if (wrong !== undefined) return send(response, 400, 'text/plain; charset=utf-8', wrong);
  const { file, ...input } = fields as unknown as FeedbackInput & { file: string };
  const path = await source.file(file);
  if (path === undefined)
    return send(response, 404, 'text/plain', `No trace file '${file}' is served here.`);
  try {
    sendJson(response, await recordFeedback(path, input, { source: 'viewer' }));
  } catch (error) {
    if (!AgentTraceError.isInstance(error)) throw error;
    send(response, 400, 'text/plain; charset=utf-8', error.message);
  }
}
