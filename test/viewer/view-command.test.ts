import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '@agent-trace/cli';
import { cli } from '../support/cli.js';
import { deskEvents, deskWithStrictGuard, scratchFolder, writeTrace } from './viewer-support.js';

const dataOf = (html: string): { mode: string; files?: { events: unknown[] }[] } => {
  const match = /<script type="application\/json" id="agent-trace-data">(.*?)<\/script>/s.exec(
    html,
  );
  return JSON.parse(match![1]!) as { mode: string; files?: { events: unknown[] }[] };
};

describe('agent-trace view', () => {
  it('writes one self-contained page beside the trace and prints where (no browser under --no-open)', async () => {
    const folder = scratchFolder();
    const events = await deskEvents();
    const trace = writeTrace(join(folder, 'desk.jsonl'), events);
    const { code, stdout } = await cli(['view', trace, '--no-open']);
    expect(code).toBe(0);
    expect(stdout).toBe(`wrote ${join(folder, 'desk.html')}\nfile://${join(folder, 'desk.html')}`);
    const html = readFileSync(join(folder, 'desk.html'), 'utf8');
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'/,
    );
    const page = html.replace(/<script type="application\/json"[^>]*>.*?<\/script>/s, '');
    expect(page).not.toMatch(/<script[^>]+src=|<link|@import|url\((?!#)|fetch\("http/);
    expect(dataOf(html).files![0]!.events).toHaveLength(events.length);
  });

  it('writes the comparison of two traces with --diff, to --out', async () => {
    const folder = scratchFolder();
    const before = writeTrace(join(folder, 'before.jsonl'), await deskEvents());
    const after = writeTrace(join(folder, 'after.jsonl'), await deskWithStrictGuard());
    const out = join(folder, 'report.html');
    const { code } = await cli(['view', before, '--diff', after, '--out', out, '--no-open']);
    expect(code).toBe(0);
    expect(dataOf(readFileSync(out, 'utf8')).mode).toBe('diff');
  });

  it('exits 2 naming the file and line of a trace it cannot read', async () => {
    const folder = scratchFolder();
    const trace = join(folder, 'broken.jsonl');
    writeFileSync(trace, '{"not": "an event"}\n');
    const { code, stderr } = await cli(['view', trace, '--no-open']);
    expect(code).toBe(2);
    expect(stderr).toContain(`${trace}:1`);
    expect(stderr).toContain(`agent-trace validate ${trace}`);
  });

  it('serves a trace past the size one page holds, and refuses to write such a page with --out or --diff', async () => {
    const folder = scratchFolder();
    const trace = writeTrace(join(folder, 'big.jsonl'), await deskEvents());
    const megabytes = statSync(trace).size / 2 ** 20;
    const limit = String(megabytes / 2);
    const out = join(folder, 'big.html');
    const refused = await cli(['view', trace, '--out', out, '--no-open', '--max-page-mb', limit]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${trace} is ${megabytes.toFixed(2)} MB, more than one page`);
    expect(refused.stderr).toContain(`agent-trace view ${trace} (without --out`);
    expect(refused.stderr).toContain(`agent-trace serve ${folder}`);
    expect(existsSync(out)).toBe(false);
    const diff = await cli([
      'view',
      trace,
      '--diff',
      trace,
      '--no-open',
      '--max-page-mb',
      String(megabytes * 1.5),
    ]);
    expect(diff).toMatchObject({ code: 2, stderr: expect.stringContaining('2 traces are') });
    const served = await untilServed(['view', trace, '--max-page-mb', limit]);
    expect(served.lines[0]).toContain(`${trace}: ${megabytes.toFixed(2)} MB, more than one page`);
    const runs = (await fetch(new URL('/api/runs', served.url)).then(answer => answer.json())) as {
      id: string;
      rowCount: number;
    }[];
    expect(runs).toHaveLength(1);
    expect(runs[0]!.rowCount).toBeGreaterThan(20);
    expect(await served.stop()).toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(
      (await cli(['view', trace, '--no-open', '--max-page-mb', String(megabytes * 2)])).code,
    ).toBe(0);
    expect((await cli(['view', trace, '--no-open', '--max-page-mb', '0'])).stderr).toContain(
      'Invalid --max-page-mb 0',
    );
  });

  it('exits 2 with advice when given no trace, or two traces and --diff', async () => {
    const none = await cli(['view']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('agent-trace serve traces');
    const two = await cli(['view', 'a.jsonl', 'b.jsonl', '--diff', 'c.jsonl']);
    expect(two).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('give one trace before it'),
    });
  });

  it('serves a folder (serve, or view --serve) until stopped, and refuses a folder that is not there', async () => {
    const folder = scratchFolder();
    writeTrace(join(folder, 'desk.jsonl'), await deskEvents());
    for (const command of [
      ['serve', folder],
      ['view', '--serve', folder],
    ]) {
      const served = await untilServed(command);
      const runs = (await fetch(new URL('/api/runs', served.url)).then(answer =>
        answer.json(),
      )) as { file: string }[];
      expect(runs.map(run => run.file)).toEqual(['desk.jsonl']);
      const taken = await cli([...command, '--port', new URL(served.url).port]);
      expect(taken).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('Choose another port'),
      });
      expect(await served.stop()).toBe(0);
    }
    const invalid = await cli(['serve', folder, '--port', 'x']);
    expect(invalid).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Invalid --port NaN'),
    });
    const missing = await cli(['serve', join(folder, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('there is no such folder');
  });
});

/** Runs a serving command until its address is printed; `stop` ends it and gives its exit code. */
async function untilServed(
  argv: readonly string[],
): Promise<{ url: string; lines: string[]; stop: () => Promise<number> }> {
  const controller = new AbortController();
  const lines: string[] = [];
  let announced: (url: string) => void = () => undefined;
  const url = new Promise<string>(resolve => (announced = resolve));
  const exit = runCli([...argv], {
    stdout: text => {
      lines.push(text);
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(text);
      if (found?.[1] !== undefined) announced(found[1]);
    },
    stderr: text => announced(`failed: ${text}`),
    env: {},
    isTTY: false,
    signal: controller.signal,
  });
  const address = await url;
  if (address.startsWith('failed')) throw new Error(address);
  return {
    url: address,
    lines,
    stop: () => {
      controller.abort();
      return exit;
    },
  };
}
