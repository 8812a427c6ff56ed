/**
 * Every response of the real-wire corpus (test/fixtures/real-wire/, recorded from the real OpenAI
 * and Anthropic APIs, each with its source): served from 127.0.0.1 as the provider sent it, split
 * at odd offsets, through the native adapter of its API. The first answer's `llm_end` must say
 * what the response says (its text, tool calls with their ids and arguments, finish and tokens,
 * read from the response itself), or the error it is, retried or not as it should be; the trace
 * validates; and a rerun with the server answering nothing is the same.
 */
import { readdirSync } from 'node:fs';
import { agent, run, stream, tool, type LanguageModel, type TraceEvent } from '@agent-trace/core';
import { anthropic } from '@agent-trace/core/anthropic';
import { openai } from '@agent-trace/core/openai';
import { defined } from '@agent-trace/core/util';
import { memorySink, rerunTrace, validateTrace } from '@agent-trace/trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  apiOf,
  calledTools,
  expectedAnswer,
  type RecordedApi,
} from '../support/real-wire/expected.js';
import {
  answerCount,
  realWireFolder,
  WireServer,
  type Recorded,
} from '../support/real-wire/wire-server.js';

/** The corpus's error answers: the status each came with, and the kind it must be. */
const errors: Readonly<Record<string, { status: number; kind: string }>> = {
  'openai-chat-reasoning-model-legacy-parameter-error.json': { status: 400, kind: 'bad_request' },
  'openai-responses-reasoning-model-temperature-error.json': { status: 400, kind: 'bad_request' },
  'openai-responses-openai-error.1.json': { status: 429, kind: 'quota_exceeded' },
  'openai-responses-insufficient-quota.chunks.txt': { status: 200, kind: 'quota_exceeded' },
};

const corpus: Recorded[] = readdirSync(realWireFolder)
  .filter(file => file.endsWith('.json') || file.endsWith('.chunks.txt'))
  .sort()
  .map(file => ({
    file,
    as: file.endsWith('.json')
      ? 'json'
      : apiOf(file) === 'anthropic'
        ? 'anthropic-sse'
        : 'openai-sse',
    ...(errors[file] === undefined ? {} : { status: errors[file].status }),
  }));

/** A plain answer of the same API, for the model call after a recorded answer's tool calls. */
const followUp = (api: RecordedApi, streamed: boolean): Recorded =>
  api === 'anthropic'
    ? streamed
      ? { file: 'anthropic-text.chunks.txt', as: 'anthropic-sse' }
      : { file: 'anthropic-text.json', as: 'json' }
    : api === 'openai-chat'
      ? { file: 'openai-chat-openai-text.json', as: 'json' }
      : streamed
        ? { file: 'openai-responses-openai-shell-local-multiturn.1.chunks.txt', as: 'openai-sse' }
        : { file: 'openai-responses-openai-phase.1.json', as: 'json' };

const wire = new WireServer();
let url = '';
beforeAll(async () => {
  url = await wire.start();
});
afterAll(() => wire.stop());

function modelOf(api: RecordedApi): LanguageModel {
  if (api === 'anthropic')
    return anthropic('claude-sonnet-4-6', { apiKey: 'test-key', baseURL: url });
  const options = { apiKey: 'test-key', baseURL: `${url}/v1` };
  return api === 'openai-chat'
    ? openai('gpt-4o-mini', options)
    : openai.responses('gpt-5-nano', options);
}

/** A desk with the tools the recorded answer calls, each answering `ok`. */
const deskFor = (recorded: Recorded, model: LanguageModel) =>
  agent({
    name: 'desk',
    instructions: 'Help.',
    model,
    tools: (errors[recorded.file] === undefined ? calledTools(recorded) : []).map(name =>
      tool({
        name,
        description: name,
        input: z.record(z.string(), z.unknown()),
        execute: () => 'ok',
      }),
    ),
    retry: { modelAttempts: 2, baseDelayMs: 1 },
  });

async function runRecorded(recorded: Recorded) {
  const api = apiOf(recorded.file);
  const streamed = recorded.as !== 'json';
  // A file of several answers (a run's calls, recorded in turn) answers the calls in turn.
  const answers = Array.from({ length: answerCount(recorded) }, (_, answer) => ({
    ...recorded,
    answer,
  }));
  wire.answer(...answers, followUp(api, streamed), followUp(api, streamed));
  const trace = memorySink();
  if (streamed) {
    const running = stream(deskFor(recorded, modelOf(api)), 'Go', { trace });
    for await (const chunk of running) void chunk;
    await running.result;
  } else await run(deskFor(recorded, modelOf(api)), 'Go', { trace });
  const requests = wire.requests;
  const events: readonly TraceEvent[] = trace.events;
  expect(validateTrace(events).problems).toEqual([]);
  wire.answer();
  const rerun = await rerunTrace(events, deskFor(recorded, modelOf(api)));
  expect(rerun.differences).toEqual([]);
  expect(wire.requests, 'the rerun called the server').toBe(0);
  const ends = events.filter(event => event.event === 'llm_end');
  return { events, requests, answers, ends, answer: ends[0] };
}

describe('the real-wire corpus', () => {
  it('holds at least 40 recorded responses: 10 streamed with tool calls, 5 refusals or errors, 5 with reasoning', () => {
    const answers = corpus.flatMap(recorded =>
      Array.from({ length: answerCount(recorded) }, (_, answer) => ({ ...recorded, answer })),
    );
    const said = answers
      .filter(each => errors[each.file] === undefined)
      .map(each => ({ streamed: each.as !== 'json', said: expectedAnswer(each) }));
    expect(answers.length).toBeGreaterThanOrEqual(40);
    expect(
      said.filter(each => each.streamed && each.said.calls.length > 0).length,
    ).toBeGreaterThanOrEqual(10);
    expect(
      Object.keys(errors).length +
        said.filter(each => each.said.finish === 'content_filter').length,
    ).toBeGreaterThanOrEqual(5);
    expect(
      said.filter(each => each.said.reasoning.some(part => part.text !== '')).length,
    ).toBeGreaterThanOrEqual(5);
    expect(new Set(corpus.map(each => apiOf(each.file)))).toEqual(
      new Set(['anthropic', 'openai-chat', 'openai-responses']),
    );
  });

  for (const [index, recorded] of corpus.entries())
    it(`${recorded.file}: what the response says`, async () => {
      // Split at other offsets answer by answer: one byte, three, seven, 64.
      wire.piece = [1, 3, 7, 64][index % 4] as number;
      const { requests, answers, ends, answer } = await runRecorded(recorded);
      const error = errors[recorded.file];
      if (error !== undefined) {
        expect(answer).toMatchObject({ error: { type: error.kind } });
        // Neither a bad request nor a used-up quota is worth a second try.
        expect(requests).toBe(1);
        return;
      }
      for (const [at, each] of answers.entries()) expectSaid(ends[at], expectedAnswer(each));
    });
});

/** `end` says what the response says: text, reasoning, tool calls, finish and tokens. */
function expectSaid(end: TraceEvent | undefined, expected: ReturnType<typeof expectedAnswer>) {
  if (end?.event !== 'llm_end') throw new Error(`no llm_end where the answer was: ${JSON.stringify(end)}`);
  expect(end).toMatchObject({
    finish_reason: expected.finish,
    tok_prompt: expected.promptTokens,
    tok_completion: expected.completionTokens,
  });
  expect(end.text ?? '').toBe(expected.text);
  expect(
    (end.reasoning ?? []).map(part => ({ text: part.text, ...defined('opaque', part.opaque) })),
  ).toEqual(expected.reasoning);
  expect(
    (end.tool_calls ?? []).map(call => ({
      id: call.call_id,
      name: call.tool,
      args: JSON.parse(call.arguments || '{}'),
    })),
  ).toEqual(expected.calls);
}
