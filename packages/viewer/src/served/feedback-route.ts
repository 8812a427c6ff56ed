import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentTraceError } from '@agent-trace/core';
import { recordFeedback, type FeedbackInput } from '@agent-trace/trace';
import { send, sendJson } from './http.js';
import type { RunSource } from './run-sources.js';
import { tokenHeader } from '../viewer-data.js';


/** The largest feedback body the server reads. */
const maxBodyBytes = 64 * 1024;

/** What a page posts to `/api/feedback`: the run's file as the page names it, and the feedback. */
interface PostedFeedback extends FeedbackInput {
  readonly file: string;
}

/**
 * Records a feedback a served page posts, into the trace file of the run it judges. Only a page
 * this server served may post: it holds the server's token, which no page of another site can
 * read. A server bound to an address other machines reach has no token, and writes nothing.
 */
export async function answerFeedback(
  source: RunSource,
  token: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (token === undefined)
    return send(
      response,
      403,
      'text/plain',
      'This server is not on a loopback address: it writes no feedback.',
    );
  if (request.headers[tokenHeader] !== token)
    return send(
      response,
      403,
      'text/plain',
      `Feedback needs the ${tokenHeader} of a page this server served: reload the page.`,
    );
  if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
    return send(response, 415, 'text/plain', 'Feedback is posted as application/json.');
  const posted = parsePosted(await readBody(request));
  if (typeof posted === 'string') return send(response, 400, 'text/plain; charset=utf-8', posted);
  const path = await source.file(posted.file);
  if (path === undefined)
    return send(response, 404, 'text/plain', `No trace file '${posted.file}' is served here.`);
  const { file: _file, ...input } = posted;
  try {
    sendJson(response, await recordFeedback(path, input, { source: 'viewer' }));
  } catch (error) {
    if (!AgentTraceError.isInstance(error)) throw error;
    send(response, 400, 'text/plain; charset=utf-8', error.message);
  }
}

/** The posted feedback, or what is wrong with it in words. */
function parsePosted(body: string | undefined): PostedFeedback | string {
  if (body === undefined) return `A feedback is at most ${maxBodyBytes} bytes.`;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'The feedback is not JSON.';
  }
  const fields = (value ?? {}) as Record<string, unknown>;
  const strings = ['file', 'run', 'label', 'comment', 'by'] as const;
  for (const name of strings)
    if (fields[name] !== undefined && typeof fields[name] !== 'string')
      return `The feedback's ${name} is text.`;
  if (typeof fields.file !== 'string' || typeof fields.run !== 'string')
    return 'A feedback names the run it judges: its file and run.';
  if (fields.score !== undefined && typeof fields.score !== 'number')
    return "The feedback's score is a number.";
  return fields as unknown as PostedFeedback;
}

/** The request's body as text; undefined when it is longer than {@link maxBodyBytes}. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
