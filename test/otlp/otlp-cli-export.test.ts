import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '@agent-trace/core';
import type { ReceivedSpan } from '@agent-trace/testing/otlp';
import { jsonlSink } from '@agent-trace/trace';
import { otlpSink } from '@agent-trace/trace/otlp';
import { describe, expect, it } from 'vitest';
import { reviewDesk } from '../../examples/document-review/agents.js';
import { cli } from '../support/cli.js';
import { byName, directory, input, receiver } from './otlp-fixtures.js';

describe('agent-trace export', () => {
  it('sends a recorded JSONL trace as the same span tree as live export', async () => {
    const live = await receiver();
    const path = join(directory, 'recorded.jsonl');
    const file = jsonlSink(path);
    await run(reviewDesk(), input, {
      trace: [file, otlpSink({ endpoint: live.url })],
      session: 'demo',
    });
    await file.close();
    await live.waitForSpans(37);
    const later = await receiver();
    const { code, stdout } = await cli(['export', path, '--otlp', later.url]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^✓ 75 events → 37 spans sent to http:\/\/127\.0\.0\.1:\d+ \(grpc\)$/);
    const tree = (spans: readonly ReceivedSpan[]) =>
      spans
        .map(span => ({ ...span, resource: undefined }))
        .sort((left, right) => left.spanId.localeCompare(right.spanId));
    expect(tree(later.spans)).toEqual(tree(live.spans));
  });

  it('speaks OTLP HTTP/protobuf with --protocol http', async () => {
    const collector = await receiver();
    const path = join(directory, 'over-http.jsonl');
    const file = jsonlSink(path);
    await run(reviewDesk(), input, { trace: file });
    await file.close();
    const { code, stdout } = await cli([
      'export',
      path,
      '--otlp',
      collector.httpUrl,
      '--protocol',
      'http',
    ]);
    expect(stdout).toMatch(/37 spans sent to .* \(http\)$/);
    expect(code).toBe(0);
    expect(collector.spans).toHaveLength(37);
    expect(byName(collector.spans, 'invoke_agent coordinator')?.kind).toBe('INTERNAL');
  });

  it('sends the spans of a torn trace too, the unfinished ones marked as such', async () => {
    const path = join(directory, 'whole.jsonl');
    const file = jsonlSink(path);
    await run(reviewDesk(), input, { trace: file });
    await file.close();
    const lines = readFileSync(path, 'utf8').split('\n').slice(0, 30);
    const starts = lines.filter(line => /"event":"\w+_start"/.test(line)).length;
    const ends = lines.filter(line => /"event":"\w+_end"/.test(line)).length;
    const torn = join(directory, 'torn.jsonl');
    writeFileSync(torn, `${lines.join('\n')}\n{"v":1,"seq":30,"ti`);
    const collector = await receiver();
    const { code, stderr } = await cli(['export', torn, '--otlp', collector.url]);
    expect(code).toBe(0);
    expect(stderr).toMatch(/torn\.jsonl:31: the last line has no newline/);
    expect(collector.spans).toHaveLength(starts);
    const unfinished = collector.spans.filter(
      span => span.attributes['error.type'] === 'unfinished',
    );
    expect(unfinished).toHaveLength(starts - ends);
    expect(unfinished.map(span => span.status.code)).toEqual(unfinished.map(() => 'ERROR'));
    expect(unfinished.at(-1)?.name).toBe('invoke_workflow coordinator');
  });

  it('exits 1 when the collector does not take the spans', async () => {
    const collector = await receiver();
    collector.setBehaviour({ kind: 'unavailable' });
    const path = join(directory, 'small.jsonl');
    const file = jsonlSink(path);
    await run(reviewDesk(), input, { trace: file });
    await file.close();
    const { code, stdout } = await cli(['export', path, '--otlp', collector.url]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/37 failed, 0 dropped/);
  });
});
