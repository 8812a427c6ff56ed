/**
 * The exported spans against the GenAI semantic conventions, over every golden trace (native
 * runs of each agent shape, workflows, plans, the three bridges, imports): each operation has
 * the attributes the conventions require, and those conditionally required when their condition
 * holds; values have the conventions' types (a string array is an array, not JSON text); and no
 * `gen_ai.*`, `error.*`, `server.*`, `mcp.*` or `network.*` name is one the published package
 * does not define.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TraceEvent } from '@agent-trace/core';
import { SpanStatusCode } from '@opentelemetry/api';
import { SpanBuilder } from '@agent-trace/trace/otlp';
import { resourceFromAttributes } from '@opentelemetry/resources';
import * as conventions from '@opentelemetry/semantic-conventions/incubating';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';

const golden = resolve(dirname(fileURLToPath(import.meta.url)), '../../golden');
const published = new Set<string>();
for (const value of Object.values(conventions) as unknown[])
  if (typeof value === 'string') published.add(value);
const values = (prefix: string) =>
  new Set(
    Object.entries(conventions as Record<string, unknown>).flatMap(([key, value]) =>
      key.startsWith(prefix) && typeof value === 'string' ? [value] : [],
    ),
  );
const operations = values('GEN_AI_OPERATION_NAME_VALUE_');
const toolTypes = new Set(['function', 'extension', 'datastore']);
const outputTypes = values('GEN_AI_OUTPUT_TYPE_VALUE_');

/** The spans a trace's events export as (what `otlpSink` and `agent-trace export` send). */
function exported(events: readonly TraceEvent[], captureContent: boolean): ReadableSpan[] {
  const builder = new SpanBuilder({
    captureContent,
    maxAttributeLength: 65_536,
    resource: resourceFromAttributes({ 'service.name': 'conformance' }),
  });
  return [...events.flatMap(event => builder.accept(event) ?? []), ...builder.unfinished()];
}

/** What is wrong with one span against the conventions; empty when nothing is. */
function problems(span: ReadableSpan): string[] {
  const found: string[] = [];
  const a = span.attributes;
  const say = (problem: string) => found.push(`${span.name}: ${problem}`);
  for (const name of Object.keys(a))
    if (/^(gen_ai|error|server|mcp|network)\./.test(name) && !published.has(name))
      say(`${name} is not a name the conventions define`);
  const operation = a['gen_ai.operation.name'];
  if (operation === undefined) {
    // A span of agent-trace's own (a workflow step, an imported plain span) carries the context
    // names only: which conversation and workflow it belongs to.
    const context = new Set(['gen_ai.conversation.id', 'gen_ai.workflow.name']);
    const stray = Object.keys(a).filter(name => name.startsWith('gen_ai.') && !context.has(name));
    if (stray.length > 0) say(`${stray.join(', ')} without gen_ai.operation.name`);
    return found;
  }
  if (typeof operation !== 'string' || !operations.has(operation))
    say(`gen_ai.operation.name ${String(operation)} is not one of the conventions' values`);
  const text = (name: string, required: boolean) => {
    const value = a[name];
    if (value === undefined) {
      if (required) say(`${name} is required`);
    } else if (typeof value !== 'string') say(`${name} is a ${typeof value}, not a string`);
  };
  const integer = (name: string) => {
    if (a[name] !== undefined && !Number.isInteger(a[name])) say(`${name} is not an integer`);
  };
  const strings = (name: string) => {
    const value = a[name];
    if (value !== undefined && !(Array.isArray(value) && value.every(v => typeof v === 'string')))
      say(`${name} is not a string array`);
  };
  if (operation === 'chat' || operation === 'invoke_agent') {
    text('gen_ai.provider.name', true);
    text('gen_ai.request.model', false);
  }
  if (operation === 'invoke_agent') text('gen_ai.agent.name', true);
  if (operation === 'invoke_workflow') text('gen_ai.workflow.name', true);
  if (operation === 'execute_tool') {
    text('gen_ai.tool.name', true);
    const type = a['gen_ai.tool.type'];
    if (type !== undefined && !toolTypes.has(String(type))) say(`gen_ai.tool.type ${String(type)}`);
  }
  const output = a['gen_ai.output.type'];
  if (output !== undefined && !outputTypes.has(String(output)))
    say(`gen_ai.output.type ${String(output)}`);
  if (span.status.code === SpanStatusCode.ERROR) text('error.type', true);
  text('gen_ai.conversation.id', false);
  for (const name of ['gen_ai.usage.input_tokens', 'gen_ai.usage.output_tokens']) integer(name);
  strings('gen_ai.response.finish_reasons');
  strings('gen_ai.request.stop_sequences');
  return found;
}

const traces = readdirSync(golden).filter(name => name.endsWith('.jsonl'));

describe('exported spans against the GenAI conventions', () => {
  it('reads every golden trace', () => {
    expect(traces.length).toBeGreaterThan(30);
  });

  it.each(traces)('%s', name => {
    const events = readFileSync(join(golden, name), 'utf8')
      .split('\n')
      .filter(line => line.trim() !== '')
      .map(line => JSON.parse(line) as TraceEvent);
    for (const captureContent of [false, true]) {
      const spans = exported(events, captureContent);
      expect(spans.length).toBeGreaterThan(0);
      expect(spans.flatMap(problems)).toEqual([]);
    }
  });
});
