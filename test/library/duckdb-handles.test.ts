/**
 * DuckDB handles are owned and closed in one place, and no DuckDB work is left running when its
 * owner closes: a thread ended under a running query would abort the whole process (the binding
 * throws into the torn-down thread). Two processes hammer one folder's library and one experiment
 * store at once (200 rounds of concurrent opens, queries, updates and closes in all), and end
 * worker threads the moment their served viewer has closed with requests still being answered.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeDeskFolder } from '../support/trace-folder.js';
import { scratchFolder } from '../viewer/viewer-support.js';

const exec = promisify(execFile);

describe('DuckDB under concurrent use', () => {
  it('never crashes: 2 processes × 100 rounds (6 threads each), and threads ended as soon as their viewer closed', async () => {
    const root = scratchFolder();
    const folder = join(root, 'traces');
    await writeDeskFolder(folder, 12, 12);
    const stress = () =>
      exec(
        process.execPath,
        [
          '--import',
          'tsx',
          'test/fixtures/duckdb-stress.ts',
          folder,
          join(root, 'store'),
          '100',
          '6',
        ],
        { timeout: 110_000 },
      ).catch((error: { code?: number; signal?: string; stderr?: string }) => ({
        stdout: `exit ${error.code ?? error.signal}: ${error.stderr ?? ''}`,
      }));
    const done = await Promise.all([stress(), stress()]);
    expect(done.map(each => each.stdout)).toEqual(['done\n', 'done\n']);
  }, 120_000);
});
