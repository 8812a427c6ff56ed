/**
 * A conversation's trace through the CLI and the library: `replay` names each turn, `rerun`
 * reruns the turns in order (each from what the rerun of the one before left), and the library's
 * `sessions` view has a row per conversation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversation } from '@agent-trace/core/conversation';
import { jsonlSink } from '@agent-trace/trace';
import { TraceLibrary } from '@agent-trace/trace/library';
import { afterAll, describe, expect, it } from 'vitest';
import { customerTurns, orderDesk } from '../../examples/conversations/desk.js';
import { cli } from '../support/cli.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-trace-conversation-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function recordedFile(): Promise<string> {
  const file = join(folder, 'chat.jsonl');
  const trace = jsonlSink(file);
  const chat = conversation(orderDesk(), { trace, id: 'chat-7' });
  for (const message of customerTurns) await chat.send(message);
  await trace.close();
  return file;
}

describe("a conversation's trace", () => {
  it('replays each turn as a run of the conversation, and reruns the turns in order as the same', async () => {
    const file = await recordedFile();
    const replayed = await cli(['replay', file], { NO_COLOR: '1' });
    expect(replayed.code).toBe(0);
    expect(replayed.stdout.match(/turn \d of conversation chat-7/g)).toEqual([
      'turn 1 of conversation chat-7',
      'turn 2 of conversation chat-7',
      'turn 3 of conversation chat-7',
    ]);
    const rerun = await cli(['rerun', file, '--agent', 'examples/conversations/desk.ts'], {
      NO_COLOR: '1',
    });
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toMatch(/run 2 of 3: \S+, turn 2 of conversation 'chat-7'/);
    expect(rerun.stdout).toContain('✓ all 3 runs: same behaviour');
  });

  it("has a row in the library's sessions view: its turns, outcome and times", async () => {
    const library = new TraceLibrary(folder);
    await library.update();
    const { rows } = await library.query(
      'SELECT session, entry_agent, runs, turns, outcome FROM sessions',
    );
    expect(rows).toEqual([
      { session: 'chat-7', entry_agent: 'desk', runs: 3, turns: 3, outcome: 'completed' },
    ]);
    const turns = await library.query('SELECT turn FROM runs ORDER BY turn');
    expect(turns.rows.map(row => row.turn)).toEqual([1, 2, 3]);
    await library.settled();
  });
});
