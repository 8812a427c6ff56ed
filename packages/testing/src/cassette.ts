import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type LanguageModel } from '@agent-trace/core';
import {
  cachedModel,
  type CachedAnswer,
  type CacheMode,
  type ModelCache,
} from '@agent-trace/core/cache';
import { Redactor, type RedactionOptions } from '@agent-trace/core/redaction';

/** Options of {@link cassette} and {@link withCassette}. */
export interface CassetteOptions {
  /** @defaultValue {@link cassetteMode} of the environment */
  readonly mode?: CacheMode;
  /** Secrets replaced before anything is written; `false` writes as is. @defaultValue the known shapes */
  readonly redaction?: RedactionOptions | false;
  /** The environment {@link cassetteMode} reads. @defaultValue `process.env` */
  readonly env?: NodeJS.ProcessEnv;
}

/** One line of a cassette file. */
interface CassetteLine {
  readonly v: 1;
  readonly key: string;
  readonly model: string;
  readonly recorded_at: string;
  readonly request: Record<string, unknown>;
  readonly response: CachedAnswer['response'];
}

const keys: Readonly<Record<string, string>> = {
  'openai.chat': 'OPENAI_API_KEY',
  'openai.responses': 'OPENAI_API_KEY',
  'anthropic.messages': 'ANTHROPIC_API_KEY',
};

/**
 * The mode a test's cassette runs in: `record` only when asked (`AGENT_TRACE_RECORD=1`), the
 * provider's key is set and not under `CI`; `replay` otherwise, so a suite never calls a provider
 * by accident and CI never records.
 */
export function cassetteMode(env: NodeJS.ProcessEnv, provider?: string): CacheMode {
  if (env.AGENT_TRACE_RECORD !== '1' || env.CI === 'true' || env.CI === '1') return 'replay';
  const key = provider === undefined ? undefined : keys[provider];
  return key === undefined || (env[key] ?? '') !== '' ? 'record' : 'replay';
}

/**
 * A cassette: recorded model answers in a JSONL file, one answer a line (the request, redacted,
 * and the response), so a review shows what the tests send and get. In `replay` mode a request
 * it does not have fails with the closest recorded one and what differs.
 */
export function cassette(path: string, options: CassetteOptions = {}): ModelCache {
  const redactor = options.redaction === false ? undefined : new Redactor(options.redaction);
  const mode = options.mode ?? cassetteMode(options.env ?? process.env);
  const lines = mode === 'record' || !existsSync(path) ? [] : readLines(path);
  const answers = new Map(lines.map(line => [line.key, line]));
  let fresh = mode === 'record';
  return {
    get: key => {
      const line = answers.get(key);
      return line === undefined
        ? undefined
        : { key, request: line.request, response: line.response };
    },
    set: answer => {
      const line: CassetteLine = {
        v: 1,
        key: answer.key,
        model: String(answer.request.model),
        recorded_at: new Date().toISOString(),
        request: redactor === undefined ? answer.request : redactor.value(answer.request),
        response: redactor === undefined ? answer.response : redactor.value(answer.response),
      };
      answers.set(line.key, line);
      const text = `${JSON.stringify(line)}\n`;
      // A recording starts the file anew; later answers are appended.
      if (fresh) writeFileSync(path, text);
      else appendFileSync(path, text);
      fresh = false;
    },
    explainMiss: request => explainMiss(request, [...answers.values()], path),
  };
}

/** `model`, answering from (and recording to) the cassette at `path`. */
export function withCassette(
  model: LanguageModel,
  path: string,
  options: CassetteOptions = {},
): LanguageModel {
  const mode = options.mode ?? cassetteMode(options.env ?? process.env, model.provider);
  return cachedModel(model, { cache: cassette(path, { ...options, mode }), mode });
}

function readLines(path: string): CassetteLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(line => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as CassetteLine;
      } catch (error) {
        throw new Error(
          `${path}:${index + 1}: not a cassette line (${error instanceof Error ? error.message : String(error)}). Record the cassette again (AGENT_TRACE_RECORD=1 with the provider's key) or fix the line.`,
          { cause: error },
        );
      }
    });
}

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);
};

/** What differs between a request and a recorded one, part by part. */
function differences(
  request: Record<string, unknown>,
  recorded: Record<string, unknown>,
): string[] {
  const found: string[] = [];
  for (const part of ['model', 'settings', 'instructions', 'responseFormat', 'stopSequences']) {
    if (JSON.stringify(request[part]) !== JSON.stringify(recorded[part]))
      found.push(`${part}: ${show(recorded[part])} → ${show(request[part])}`);
  }
  const tools = (value: unknown) =>
    ((value ?? []) as { name: string; description: string }[]).map(
      tool => `${tool.name}: ${tool.description}`,
    );
  if (JSON.stringify(request.tools) !== JSON.stringify(recorded.tools))
    found.push(`tools: ${show(tools(recorded.tools))} → ${show(tools(request.tools))}`);
  const now = (request.messages ?? []) as { role: string }[];
  const was = (recorded.messages ?? []) as { role: string }[];
  const index = now.findIndex((message, at) => JSON.stringify(message) !== JSON.stringify(was[at]));
  if (index !== -1)
    found.push(
      `message ${index + 1} (${now[index]?.role}): ${show(was[index])} → ${show(now[index])}`,
    );
  else if (was.length > now.length)
    found.push(`messages: ${was.length} recorded, ${now.length} now`);
  return found;
}

function explainMiss(
  request: Record<string, unknown>,
  recorded: readonly CassetteLine[],
  path: string,
): string {
  const ranked = recorded
    .map(line => ({ line, differs: differences(request, line.request) }))
    .sort((left, right) => left.differs.length - right.differs.length);
  const closest = ranked[0];
  if (closest === undefined)
    return `The cassette ${path} holds no answers: record it with AGENT_TRACE_RECORD=1 and the provider's key.`;
  return `The closest of the ${recorded.length} recorded in ${path} (recorded ${closest.line.recorded_at}) differs in ${closest.differs.join('; ')}. If the change is intended, record the cassette again (AGENT_TRACE_RECORD=1 with the provider's key).`;
}
