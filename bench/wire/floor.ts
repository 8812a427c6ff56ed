/**
 * The wire's floor: what a run of N model calls costs with nothing but HTTP, the server and
 * parsing. It sends the byte-identical requests agent-trace's OpenAI adapter sends (the same URL,
 * headers and bodies, captured once per N from a run of the adapter, outside the timed part) with
 * the global `fetch` (undici, keep-alive), each body serialized with `JSON.stringify` (to the same
 * bytes) as any client must, and reads each answer with `JSON.parse`, or, streamed,
 * with a plain SSE reader (split on blank lines, `JSON.parse` each `data:`). No agent, no tool, no
 * conversation. Beside it, the official client alone with the same requests: between the floor
 * and agent-trace's row are the client's request path and agent-trace's own step.
 */
import OpenAI from 'openai';
import { expectDone, type Subject } from '../peers/subject.js';
import { adapterAgent, adapterRun } from './adapter-run.js';
import type { WireMode } from './wire-mode.js';
import { wireNames } from './wire-names.js';

/** One request as the adapter sent it. */
interface SentRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  /** The body as the adapter sent it, parsed: the floor serializes it again, to the same bytes. */
  readonly body: unknown;
}

/** Runs the adapter once at `steps`, keeping every request it sends. */
async function captureRequests(baseURL: string, steps: number, mode: WireMode) {
  const sent: SentRequest[] = [];
  const capturing: typeof fetch = (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    if (typeof input !== 'string' && !(input instanceof URL))
      throw new Error('The adapter sent a Request object; the floor expects a URL and a body.');
    if (typeof init?.body !== 'string')
      throw new Error('The adapter sent a body that is not text.');
    sent.push({ url: input.toString(), headers, body: JSON.parse(init.body) });
    return fetch(input, init);
  };
  await adapterRun(adapterAgent(steps, baseURL, capturing), mode);
  return sent;
}

/** The text of a JSON answer's message, `JSON.parse`d. */
async function jsonAnswer(response: Response): Promise<string> {
  const parsed = JSON.parse(await response.text()) as {
    choices: { message: { content: string | null } }[];
  };
  return parsed.choices[0]?.message.content ?? '';
}

/** The text of a streamed answer: every `data:` event parsed, its content deltas joined. */
async function streamedAnswer(response: Response): Promise<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  const take = (event: string) => {
    for (const line of event.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      const chunk = JSON.parse(data) as { choices: { delta?: { content?: string | null } }[] };
      text += chunk.choices[0]?.delta?.content ?? '';
    }
  };
  for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(part, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      take(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
    }
  }
  take(buffer);
  return text;
}

/** Sends one captured request and reads its answer's text. */
type Send = (request: SentRequest) => Promise<string>;

/** A subject that replays the adapter's captured requests through `send`. */
function replaying(name: string, baseURL: string, mode: WireMode, send: Send): Subject {
  const captured = new Map<number, readonly SentRequest[]>();
  return {
    name,
    kind: 'peer',
    async prepare(steps) {
      let requests = captured.get(steps);
      if (requests === undefined) {
        requests = await captureRequests(baseURL, steps, mode);
        captured.set(steps, requests);
      }
      const sent = requests;
      return {
        async run() {
          let text = '';
          for (const request of sent) text = await send(request);
          expectDone(name, text);
          return text;
        },
        finish: () => Promise.resolve(),
      };
    },
  };
}

/** The floor: the adapter's requests, sent with `fetch` and parsed with nothing in between. */
export function floorWire(baseURL: string, mode: WireMode): Subject {
  return replaying(wireNames.floor, baseURL, mode, async request => {
    const response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: JSON.stringify(request.body),
    });
    return mode === 'json' ? jsonAnswer(response) : streamedAnswer(response);
  });
}

/**
 * The official `openai` client alone, as the adapter calls it (retries off), with the adapter's
 * request bodies: JSON answers parsed by the client; streams taken as the raw response and read
 * by the floor's SSE reader, as the adapter reads them. Between the floor and this row is the
 * client's own request path; between this row and agent-trace's is agent-trace's.
 */
export function openaiClientWire(baseURL: string, mode: WireMode): Subject {
  const client = new OpenAI({ apiKey: 'bench', baseURL, maxRetries: 0 });
  type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
  return replaying(wireNames['openai-client'], baseURL, mode, async request => {
    if (mode === 'json') {
      const completion = await client.chat.completions.create(request.body as Body);
      return completion.choices[0]?.message.content ?? '';
    }
    const body = { ...(request.body as Body), stream: true } as const;
    return streamedAnswer(await client.chat.completions.create(body).asResponse());
  });
}
