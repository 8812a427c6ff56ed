/**
 * The names on agent-trace's spans and metrics: each GenAI (and error, MCP, network) name is one
 * the published conventions package defines, and each name of agent-trace's own (`agent_trace.*`)
 * written anywhere in the trace package is listed in the OpenTelemetry guide with why.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { genAiMetrics, ownAttributes, semconv } from '@agent-trace/trace/otlp';
import * as conventions from '@opentelemetry/semantic-conventions/incubating';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const published = new Set<string>();
for (const value of Object.values(conventions) as unknown[])
  if (typeof value === 'string') published.add(value);

/** The string literals (and template parts) starting with `prefix` in every package's sources. */
function literals(prefix: string): Set<string> {
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node))
      if (node.text.startsWith(prefix)) found.add(node.text);
    ts.forEachChild(node, visit);
  };
  for (const file of sourceFiles(join(root, 'packages')))
    visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  return found;
}

describe('semantic-convention names', () => {
  it('are all defined by @opentelemetry/semantic-conventions', () => {
    const ours = [...Object.values(semconv), ...Object.values(genAiMetrics)];
    expect(ours.filter(name => !published.has(name))).toEqual([]);
    expect(ours.length).toBeGreaterThan(25);
  });

  it('are never typed by hand: no gen_ai. string in any package', () => {
    expect([...literals('gen_ai.')]).toEqual([]);
  });

  it("of agent-trace's own are under agent_trace.*, none a name the conventions define", () => {
    for (const name of Object.values(ownAttributes)) {
      expect(name).toMatch(/^agent_trace\./);
      expect(published.has(name)).toBe(false);
    }
  });

  it("of agent-trace's own are each listed in the OpenTelemetry guide", () => {
    const guide = readFileSync(join(root, 'docs/guide/opentelemetry.md'), 'utf8');
    const own = new Set(
      [...literals('agent_trace.'), ...Object.values(ownAttributes)].filter(
        name => !name.endsWith('.'),
      ),
    );
    expect(own.size).toBeGreaterThan(30);
    expect([...own].filter(name => !guide.includes(`\`${name}\``))).toEqual([]);
  });
});
