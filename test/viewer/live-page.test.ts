import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { isSpanStart } from '@agent-trace/core/spans';
import { serveTraces, type TraceServer } from '@agent-trace/viewer';
import { chromiumForFile, deskEvents, scratchFolder, text } from './viewer-support.js';

const browser = chromiumForFile();
let server: TraceServer;
let folder: string;
beforeAll(async () => {
  folder = scratchFolder();
  server = await serveTraces(folder, { pollMs: 50 });
});
afterAll(async () => {
  await server.close();
});

const line = (event: unknown): string => `${JSON.stringify(event)}\n`;

describe('agent-trace view --serve, in Chromium', () => {
  it('lists the trace files and shows an appended event within a second', async () => {
    const events = await deskEvents();
    const half = events.findIndex(event => event.event === 'tool_start');
    mkdirSync(join(folder, 'nested'));
    writeFileSync(join(folder, 'nested', 'other.jsonl'), '');
    writeFileSync(join(folder, 'live.jsonl'), events.slice(0, half).map(line).join(''));
    const page = await browser().newPage();
    await page.goto(`${server.url}#file=live.jsonl`);
    const options = page.getByLabel('Trace file').locator('option');
    await expect.poll(() => options.allInnerTexts()).toHaveLength(2);
    expect((await options.allInnerTexts()).join('\n')).toContain('nested/other.jsonl');
    const shown = events.slice(0, half).findLast(event => isSpanStart(event.event))!;
    await page.waitForSelector(`.row[data-seq="${shown.seq}"]`);
    expect(await text(page.locator('.run-item'))).toContain('running');
    const next = events[half]!;
    const appendedAt = Date.now();
    appendFileSync(join(folder, 'live.jsonl'), line(next));
    await page.waitForSelector(`.row[data-seq="${next.seq}"]`, { timeout: 1000 });
    expect(Date.now() - appendedAt).toBeLessThan(1000);
    appendFileSync(
      join(folder, 'live.jsonl'),
      events
        .slice(half + 1)
        .map(line)
        .join(''),
    );
    await expect.poll(() => text(page.locator('.run-item'))).toContain('completed');
    await page.close();
  });

  it('answers only requests addressed to 127.0.0.1 and reads only .jsonl files inside the folder', async () => {
    writeFileSync(join(folder, 'secret.txt'), 'no');
    const outside = scratchFolder();
    writeFileSync(join(outside, 'elsewhere.jsonl'), '');
    symlinkSync(join(outside, 'elsewhere.jsonl'), join(folder, 'link.jsonl'));
    const port = new URL(server.url).port;
    const get = (path: string, host = `127.0.0.1:${port}`) =>
      new Promise<number | undefined>((resolve, reject) => {
        const call = request(new URL(path, server.url), { headers: { host } }, response => {
          response.resume();
          resolve(response.statusCode);
          call.destroy();
        });
        call.on('error', reject);
        call.end();
      });
    expect(await get('/api/files')).toBe(200);
    expect(await get('/api/events?file=secret.txt')).toBe(404);
    expect(await get('/api/events?file=../../etc/passwd.jsonl')).toBe(404);
    expect(await get('/api/events?file=link.jsonl')).toBe(404);
    expect(await get('/api/files', `evil.example:${port}`)).toBe(403);
    const files = (await fetch(new URL('/api/files', server.url)).then(response =>
      response.json(),
    )) as {
      name: string;
    }[];
    expect(files.map(file => file.name).sort()).toEqual(['live.jsonl', 'nested/other.jsonl']);
    rmSync(join(folder, 'link.jsonl'));
  });
});
