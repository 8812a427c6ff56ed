/**
 * A conversation forked at a turn: the recorded turns before it are rebuilt from the recording (no
 * model call, no tool run), and the turn is taken again by another model, with the recorded
 * message or another; from code (`conversationFromTrace(…, { beforeTurn })`) and the CLI
 * (`agent-trace fork --turn`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceEventOf } from '@agent-trace/core';
import { conversation } from '@agent-trace/core/conversation';
import { fakeLLM } from '@agent-trace/testing';
import { openaiHandlers } from '@agent-trace/testing/msw';
import { conversationFromTrace, jsonlSink, memorySink, readTrace } from '@agent-trace/trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerTurns, orderDesk } from '../../examples/conversations/desk.js';
import { cli } from '../support/cli.js';
import { useMswServer } from '../support/provider-wire.js';

const server = useMswServer();
const folder = mkdtempSync(join(tmpdir(), 'agent-trace-conversation-fork-'));
const file = join(folder, 'chat.jsonl');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

beforeAll(async () => {
  const trace = jsonlSink(file);
  const chat = conversation(orderDesk(), { trace, id: 'chat-7' });
  for (const message of customerTurns) await chat.send(message);
  await trace.close();
});

describe('a conversation forked at a turn', () => {
  it('rebuilds the turns before it from the recording, and takes the turn again with another model', async () => {
    const trace = memorySink();
    const other = fakeLLM([{ text: 'A new one is on its way.' }]);
    const chat = await conversationFromTrace(file, orderDesk(other), { beforeTurn: 2, trace });
    expect(chat.turnCount).toBe(1);
    expect(chat.messages.map(message => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    const turn = await chat.send('A new one, please.');
    expect(turn.output).toBe('A new one is on its way.');
    const start = trace.events.find(
      (event): event is TraceEventOf<'run_start'> => event.event === 'run_start',
    );
    expect(start?.conversation).toEqual({ id: 'chat-7', turn: 2 });
    expect(start?.history).toHaveLength(4);
  });

  it('refuses a turn the conversation cannot be forked at', async () => {
    await expect(conversationFromTrace(file, orderDesk(), { beforeTurn: 9 })).rejects.toThrow(
      "Conversation 'chat-7' has turns 1 to 3: beforeTurn must be a whole number from 1 to 4 (got 9).",
    );
  });

  it('forks through the CLI: the recorded message of the turn, answered by the named model', async () => {
    const baseURL = 'http://fork-turn.llm.test/v1';
    server.use(...openaiHandlers([{ text: 'Refund sent; 43 arrives Monday.' }], { baseURL }));
    const out = join(folder, 'fork.jsonl');
    const forked = await cli(
      [
        'fork',
        file,
        '--agent',
        'examples/conversations/desk.ts',
        '--turn',
        '2',
        '--model',
        'openai-compatible:what-if',
        '--base-url',
        baseURL,
        '--out',
        out,
      ],
      { NO_COLOR: '1' },
    );
    expect(forked.stderr).toBe('');
    expect(forked.code).toBe(0);
    expect(forked.stdout).toContain("Forked conversation 'chat-7'");
    expect(forked.stdout).toContain('✓ turns 1–1 rebuilt as recorded');
    expect(forked.stdout).toContain('user:  A refund, and where is 43?');
    expect(forked.stdout).toContain('agent: Refund sent; 43 arrives Monday.');
    const models: string[] = [];
    for await (const event of readTrace(out))
      if (event.event === 'llm_start') models.push(event.model);
    expect(models).toEqual(['what-if']);
    const both = await cli(['fork', file, '--agent', 'x.ts', '--model', 'openai:gpt-4o']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('fork needs --after-step <n>');
  });
});
