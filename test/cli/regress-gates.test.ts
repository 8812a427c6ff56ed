// `regress` as a CI gate: a library with a trace it cannot read whole never passes, whatever the
// flags; a divergence fails it with --fail-on-divergence, and --fail-on-regression says loudly how
// many diverged runs it could not judge; an export the CLI does not read is named with the one meant.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import { runCli } from '@agent-trace/cli';
import { jsonlSink } from '@agent-trace/trace';
import { beforeAll, describe, expect, it } from 'vitest';
import { smallDesk } from '../fixtures/agents/small-desk.js';

const desk = 'test/fixtures/agents/small-desk.ts';
let recorded = '';
beforeAll(async () => {
  recorded = join(mkdtempSync(join(tmpdir(), 'regress-gates-')), 'desk.jsonl');
  const sink = jsonlSink(recorded);
  await run(smallDesk(), 'Weather in Paris, then a refund', { trace: sink });
  await sink.close();
});

async function regressCli(
  folder: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [stdout, stderr]: [string[], string[]] = [[], []];
  const code = await runCli(['regress', folder, '--no-store', ...args], {
    stdout: text => void stdout.push(text),
    stderr: text => void stderr.push(text),
    env: { NO_COLOR: '1' },
    isTTY: false,
  });
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

/** A library holding the good recording and one broken file. */
function libraryWith(broken: string | Buffer): string {
  const folder = mkdtempSync(join(tmpdir(), 'regress-gates-library-'));
  copyFileSync(recorded, join(folder, 'good.jsonl'));
  writeFileSync(join(folder, 'broken.jsonl'), broken);
  return folder;
}

describe('regress over a library it cannot read whole', () => {
  const kinds: [string, () => string | Buffer][] = [
    ['a line that is not JSON', () => `${readFileSync(recorded, 'utf8')}{"v":1,"run":\n`],
    ['a line that is no event', () => `{"hello":"world"}\n`],
    [
      'lines of schema version 2',
      () => readFileSync(recorded, 'utf8').replaceAll('"v":1,', '"v":2,'),
    ],
    [
      'bytes that are not UTF-8',
      () => {
        const text = readFileSync(recorded);
        const at = text.indexOf('"agent":"') + 9;
        return Buffer.concat([text.subarray(0, at), Buffer.from([0xff]), text.subarray(at)]);
      },
    ],
    [
      'an event the schema refuses',
      () =>
        readFileSync(recorded, 'utf8').replace(
          '"event":"llm_start"',
          '"event":"llm_start","attempt":"first"',
        ),
    ],
  ];
  for (const [kind, content] of kinds)
    it(`exits 2 with ${kind}, even with --fail-on-regression, naming the file`, async () => {
      const folder = libraryWith(content());
      const gate = await regressCli(folder, '--agent', desk, '--fail-on-regression');
      expect(gate.code).toBe(2);
      expect(gate.stderr).toContain('broken.jsonl');
      expect(gate.stderr).toMatch(/does not pass/);
    });

  it('passes the same library once the broken file is gone', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'regress-gates-clean-'));
    copyFileSync(recorded, join(folder, 'good.jsonl'));
    const gate = await regressCli(folder, '--agent', desk, '--fail-on-regression');
    expect(gate.stderr).toBe('');
    expect(gate.stdout).toContain('1 run: 1 same, 0 diverged');
    expect(gate.code).toBe(0);
  });
});

describe('regress and divergences', () => {
  const changed = 'test/fixtures/agents/small-desk-tool-changed.ts';
  let folder = '';
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'regress-gates-diverged-'));
    copyFileSync(recorded, join(folder, 'desk.jsonl'));
    appendFileSync(join(folder, 'desk.jsonl'), '');
  });

  it('--fail-on-divergence exits 1 when a run diverged', async () => {
    const gate = await regressCli(
      folder,
      '--agent',
      changed,
      '--live-tools',
      '--fail-on-divergence',
    );
    expect(gate.stdout).toContain('0 same, 1 diverged');
    expect(gate.code).toBe(1);
  });

  it('--fail-on-regression with nothing to judge the divergence says so loudly', async () => {
    const gate = await regressCli(
      folder,
      '--agent',
      changed,
      '--live-tools',
      '--fail-on-regression',
    );
    expect(gate.code).toBe(0);
    expect(gate.stderr).toContain(
      "warning: 1 diverged run was not judged: with no continuation model (--continue-with, or the module's continueWith) nothing is scored",
    );
    expect(gate.stderr).toContain('--fail-on-divergence');
  });

  it('names a misspelt export of the agent module with the one meant', async () => {
    const gate = await regressCli(folder, '--agent', 'test/fixtures/agents/small-desk-misspelt.ts');
    expect(gate.stderr).toContain(
      "exports 'continuewith', which agent-trace does not read: did you mean 'continueWith'?",
    );
  });
});
