/**
 * docs/architecture.md stays a map: at most 300 lines, linking every decision record of
 * docs/decisions/ (numbered, one decision a page), and every link it has leads to a file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docs = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs');
const map = readFileSync(join(docs, 'architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  it('is a map of at most 300 lines', () => {
    expect(map.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links every decision record, each numbered with a title', () => {
    const records = readdirSync(join(docs, 'decisions')).filter(name => name.endsWith('.md'));
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(record).toMatch(/^\d{3}-[a-z0-9-]+\.md$/);
      expect(map, record).toContain(`(decisions/${record})`);
      const title = readFileSync(join(docs, 'decisions', record), 'utf8').split('\n')[0];
      expect(title).toMatch(new RegExp(`^# ${record.slice(0, 3)}\\. \\S`));
    }
  });

  it('links only to files that exist', () => {
    for (const [, target] of map.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g))
      if (!target!.startsWith('http')) expect(existsSync(join(docs, target!)), target).toBe(true);
  });
});
