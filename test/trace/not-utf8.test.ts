/**
 * A trace with bytes that are not UTF-8: `validate` calls it invalid and names the line; the
 * readers take the bytes as U+FFFD and say so once.
 */
import { readTrace } from '@agent-trace/trace';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { copiedRun, deskRunLines } from '../support/trace-folder.js';

async function damagedTrace(): Promise<string> {
  const lines = copiedRun(await deskRunLines('refunded'), 'run-1', 0);
  const third = lines.indexOf('\n', lines.indexOf('\n') + 1) + 1;
  const at = lines.indexOf('"agent":"', third) + '"agent":"'.length;
  const file = join(mkdtempSync(join(tmpdir(), 'agent-trace-not-utf8-')), 'damaged.jsonl');
  // Twice, on lines 3 and 4: told once, at the first.
  const fourth = lines.indexOf('\n', at) + 1;
  const agentAt = lines.indexOf('"agent":"', fourth) + '"agent":"'.length;
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(lines.slice(0, at)),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(lines.slice(at, agentAt)),
      Buffer.from([0xff]),
      Buffer.from(lines.slice(agentAt)),
    ]),
  );
  return file;
}

it('validate names the first line with bytes that are not UTF-8 and exits 1', async () => {
  const file = await damagedTrace();
  const validated = await cli(['validate', file]);
  expect(validated.code).toBe(1);
  expect(`${validated.stdout}\n${validated.stderr}`).toMatch(
    /line 3.*bytes that are not UTF-8|:3:.*bytes that are not UTF-8/,
  );
});

it('readers take the bytes as U+FFFD and say so once, with file and line', async () => {
  const file = await damagedTrace();
  const told: { file: string; line: number }[] = [];
  const agents: string[] = [];
  for await (const event of readTrace(file, { onReplacedBytes: at => told.push(at) }))
    agents.push(event.agent);
  expect(told).toEqual([{ file, line: 3 }]);
  expect(agents.filter(agent => agent.includes('\uFFFD'))).toHaveLength(2);
  const replayed = await cli(['replay', file]);
  expect(replayed.code).toBe(0);
  expect(replayed.stderr.match(/not UTF-8/g)).toHaveLength(1);
  expect(replayed.stderr).toContain(`${file}:3: bytes that are not UTF-8`);
});
