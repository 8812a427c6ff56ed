import type { IncomingMessage, ServerResponse } from 'node:http';
import { tokenHeader } from '../viewer-data.js';
import { send } from './http.js';

/** The largest body a page may post. */
const maxBodyBytes = 64 * 1024;

/**
 * The JSON object a served page posted, once it is known to come from a page this server served:
 * it holds the server's token, which no page of another site can read (a server bound to an
 * address other machines reach has none, and takes no post). Anything else is answered here (403,
 * 415, 400) and gives undefined.
 */
export async function postedJson(
  token: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<Record<string, unknown> | undefined> {
  if (token === undefined) {
    send(
      response,
      403,
      'text/plain',
      'This server is not on a loopback address: it writes nothing.',
    );
    return undefined;
  }
  if (request.headers[tokenHeader] !== token) {
    send(
      response,
      403,
      'text/plain',
      `Writing needs the ${tokenHeader} of a page this server served: reload the page.`,
    );
    return undefined;
  }
  if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
    send(response, 415, 'text/plain', 'Post application/json.');
    return undefined;
  }
  const body = await readBody(request);
  let value: unknown;
  try {
    value = body === undefined ? undefined : JSON.parse(body);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const why = body === undefined ? `more than ${maxBodyBytes} bytes` : 'not a JSON object';
    send(response, 400, 'text/plain', `The post is ${why}.`);
    return undefined;
  }
  return value as Record<string, unknown>;
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

/** The first of `names` that is in `fields` and not text, in words; undefined when none. */
export function notText(
  fields: Record<string, unknown>,
  names: readonly string[],
): string | undefined {
  const wrong = names.find(name => fields[name] !== undefined && typeof fields[name] !== 'string');
  return wrong === undefined ? undefined : `The post's ${wrong} is text.`;
}
