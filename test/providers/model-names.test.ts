import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { anthropic } from '@agent-trace/core/anthropic';
import { anthropicHandlers } from '@agent-trace/testing/msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelRequest, useMswServer } from '../support/provider-wire.js';

const server = useMswServer();
afterEach(() => vi.restoreAllMocks());

/** Every Markdown and TypeScript file below `path`. */
function filesBelow(path: string): string[] {
  if (statSync(path).isDirectory())
    return readdirSync(path).flatMap(name => filesBelow(join(path, name)));
  return /\.(md|ts)$/.test(path) ? [path] : [];
}

/** The Claude model ids written in the docs, the examples and the library's own defaults. */
function documentedClaudeModels(): string[] {
  const files = ['README.md', 'docs', 'examples', 'packages/core/src'].flatMap(filesBelow);
  const ids = files.flatMap(
    file => readFileSync(file, 'utf8').match(/\bclaude-[a-z0-9.-]*\d\b/g) ?? [],
  );
  return [...new Set(ids)].sort();
}

describe('documented model names', () => {
  it('are none the Anthropic SDK warns are deprecated', async () => {
    const models = documentedClaudeModels();
    expect(models.length).toBeGreaterThan(0);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const model of models) {
      server.use(...anthropicHandlers([{ text: 'ok' }], { baseURL: 'http://claude.test' }));
      await anthropic(model, { apiKey: 'k', baseURL: 'http://claude.test' }).generate(
        modelRequest(),
      );
    }
    const deprecations = warn.mock.calls
      .map(call => String(call[0]))
      .filter(text => /deprecated/i.test(text));
    expect(deprecations).toEqual([]);
  });
});
