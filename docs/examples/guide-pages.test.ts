// Every page of docs/guide/, and each package's README, names the example in docs/examples/ that
// runs it in the suite, and every TypeScript block on the page is in those examples (whitespace
// and line breaks aside), so the guides cannot show code the suite does not run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(docs, '..');
const pages = [
  ...readdirSync(join(docs, 'guide'))
    .filter(name => name.endsWith('.md'))
    .map(name => `docs/guide/${name}`),
  ...readdirSync(join(root, 'packages')).map(name => `packages/${name}/README.md`),
];

/**
 * The lines of `code` that say something, trimmed (blank ones dropped), for a message; and the
 * code as compared: without whitespace or trailing commas, so Prettier's line breaks in an
 * example do not matter.
 */
const lines = (code: string) =>
  code
    .split('\n')
    .map(line => line.trim())
    .filter(line => line !== '');
const compact = (code: string) => code.replace(/\s+/g, '').replace(/,([)\]}])/g, '$1');

describe.each(pages)('%s', page => {
  const text = readFileSync(join(root, page), 'utf8');
  // An example of docs/examples/, or a file of the user project the packed packages are checked in.
  const named = [
    ...text.matchAll(/`((?:docs\/examples|scripts\/user-project|examples\/[\w-]+)\/[\w.-]+\.ts)`/g),
  ].map(([, path]) => path as string);

  it('names the examples that run it in the suite, and they exist', () => {
    expect(named.length, `${page} names no example that runs in the suite`).toBeGreaterThan(0);
    for (const path of named) expect(existsSync(join(root, path)), path).toBe(true);
  });

  it('shows only TypeScript that its examples run', () => {
    const examples = compact(named.map(path => readFileSync(join(root, path), 'utf8')).join('\n'));
    for (const [, block] of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      const shown = lines(block as string).join('\n');
      expect(
        examples.includes(compact(shown)),
        `this block of ${page} is not in ${named.join(', ')}:\n${shown}`,
      ).toBe(true);
    }
  });
});
