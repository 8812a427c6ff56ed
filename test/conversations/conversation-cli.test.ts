/**
 * A conversation's trace through the CLI and the library: `replay` names each turn, `rerun`
 * reruns the turns in order (each from what the rerun of the one before left), and the library's
 * `sessions` view has a row per conversation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conversation } from '@agent-trace/core/conversation';
import { converse, simulatedUser } from '@agent-trace/evals';
import { fakeLLM } from '@agent-trace/testing';
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

  it("reruns a conversation held with a simulated user: the user's replies replayed, never rerun against the agent", async () => {
    const file = join(folder, 'held.jsonl');
    const trace = jsonlSink(file);
    const ana = simulatedUser({
      name: 'ana',
      model: fakeLLM([...customerTurns.map(text => ({ text })), { text: 'DONE' }]),
    });
    await converse(orderDesk(), ana, { trace, id: 'held-1' });
    await trace.close();
    const rerun = await cli(['rerun', file, '--agent', 'examples/conversations/desk.ts'], {
      NO_COLOR: '1',
    });
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain("(4 runs of the simulated user 'user-ana' replayed, not rerun");
    expect(rerun.stdout).toContain('✓ all 3 runs: same behaviour');
    const asJson = await cli([
      'rerun',
      file,
      '--agent',
      'examples/conversations/desk.ts',
      '--json',
    ]);
    const report = JSON.parse(asJson.stdout) as { same: boolean; userRuns: { agent: string }[] };
    expect(report.same).toBe(true);
    expect(report.userRuns.map(each => each.agent)).toEqual(Array(4).fill('user-ana'));
    // The user's first reply is the file's first run: naming it says what it is.
    const named = await cli([
      'rerun',
      file,
      '--agent',
      'examples/conversations/desk.ts',
      '--run',
      '1',
    ]);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(
      /--run 1: run \S+ is a simulated user's reply \('user-ana'\).*Name a run of the agent: 2\. /,
    );
  });
});
