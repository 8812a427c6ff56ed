/**
 * A folder with files the library cannot read whole: a byte order mark, bytes that are not UTF-8,
 * lines of another schema version, a file this user may not open. What can be read is indexed,
 * what cannot is named with why, and `index` says so in its exit code.
 */
import { TraceLibrary } from '@agent-trace/trace/library';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cli } from '../support/cli.js';
import { copiedRun, deskRunLines } from '../support/trace-folder.js';

let lines: string;
let otherRun: string;

beforeAll(async () => {
  lines = copiedRun(await deskRunLines('refunded'), 'run-1', 0);
  otherRun = copiedRun(await deskRunLines('answered'), 'run-2', 1000);
});

type Printed = { code: number; stdout: string; stderr: string };

/** `index` and `runs --json` on the folder as `nobody`, in a process of their own (see the fixture). */
function asNobody(folder: string): Printed[] {
  const printed = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'test/fixtures/cli-as-nobody.ts', folder],
    { encoding: 'utf8' },
  );
  return JSON.parse(printed) as Printed[];
}

const folderWith = (files: Record<string, string | Buffer>): string => {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-unreadable-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return folder;
};

describe('the library over files it cannot read whole', () => {
  it('takes a UTF-8 byte order mark as no part of the first line', async () => {
    const folder = folderWith({ 'bom.jsonl': `\uFEFF${lines}${otherRun}` });
    const library = new TraceLibrary(folder);
    const update = await library.update();
    expect(update).toMatchObject({ skippedLines: 0, unreadable: [] });
    const { rows } = await library.query('SELECT run FROM runs ORDER BY run');
    expect(rows.map(row => row.run)).toEqual(['run-1', 'run-2']);
    expect(await library.problems()).toEqual([]);
  });

  it('skips lines of another schema version, and names the file, where and why', async () => {
    const newer = lines.replaceAll('"v":1,', '"v":2,');
    const folder = folderWith({ 'newer.jsonl': newer, 'ok.jsonl': otherRun });
    const library = new TraceLibrary(folder);
    const update = await library.update();
    expect(update.skippedLines).toBe(newer.trim().split('\n').length);
    const { rows } = await library.query('SELECT run FROM runs');
    expect(rows.map(row => row.run)).toEqual(['run-2']);
    expect(await library.problems()).toEqual([
      expect.stringMatching(
        /^newer\.jsonl: \d+ lines are not trace events and were skipped \(the first at byte 0: trace schema version 2 \(this agent-trace reads 1/,
      ),
    ]);
  });

  it('indexes a file with bytes that are not UTF-8 and says where they are', async () => {
    const at = lines.indexOf('\n') + 1;
    const second = lines.indexOf('"agent":"', at) + '"agent":"'.length;
    const damaged = Buffer.concat([
      Buffer.from(lines.slice(0, second)),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(lines.slice(second)),
    ]);
    const folder = folderWith({ 'damaged.jsonl': damaged });
    const library = new TraceLibrary(folder);
    await library.update();
    expect(await library.problems()).toEqual([
      `damaged.jsonl: bytes that are not UTF-8 (the first on the line at byte ${Buffer.byteLength(lines.slice(0, at))}), read as U+FFFD`,
    ]);
    const index = await cli(['index', folder]);
    expect(index.code).toBe(1);
    expect(index.stderr).toContain('damaged.jsonl: bytes that are not UTF-8');
    const query = await cli(['query', 'SELECT count(*) AS runs FROM runs', '--dir', folder]);
    expect(query.code).toBe(0);
    expect(query.stdout).toContain('1');
    expect(query.stderr).toMatch(/1 trace file of .* could not be read whole/);
  });

  it('indexes the files it can read when one may not be opened, and names that one', async () => {
    const folder = folderWith({ 'a.jsonl': lines, 'locked.jsonl': otherRun });
    chmodSync(join(folder, 'locked.jsonl'), 0o000);
    const commands = [
      ['index', folder],
      ['runs', '--dir', folder, '--json'],
    ];
    // Root reads any file: the commands then run as a user who may not (nobody).
    const root = process.getuid?.() === 0;
    if (root) chmodSync(folder, 0o777);
    const [index, runs] = root
      ? asNobody(folder)
      : [await cli(commands[0]!), await cli(commands[1]!)];
    expect(index!.stderr).toMatch(
      /locked\.jsonl: cannot be read, left out: EACCES: permission denied, open '.*locked\.jsonl': this user may not read it; fix its permissions/,
    );
    expect(index!.code).toBe(1);
    expect(index!.stdout).toMatch(/^2 trace files, 1 read/);
    expect(runs!.code).toBe(0);
    expect(runs!.stdout).toContain('"run":"run-1"');
    expect(runs!.stderr).toContain('locked.jsonl: cannot be read');
  });
});
