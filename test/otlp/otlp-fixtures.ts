import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@agent-trace/testing/otlp';
import { afterEach } from 'vitest';
import { draft } from '../../examples/document-review/draft.js';

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map(started => started.close()));
});

/** A fresh in-process OTLP receiver, closed after the test. */
export async function receiver(): Promise<OtlpReceiver> {
  const started = await startOtlpReceiver();
  receivers.push(started);
  return started;
}

/** A scratch directory for the traces of these tests. */
export const directory = mkdtempSync(join(tmpdir(), 'agent-trace-otlp-'));
/** The demo's input. */
export const input = `Review this draft: ${draft}`;

/** The first span called `name`. */
export const byName = (spans: readonly ReceivedSpan[], name: string): ReceivedSpan | undefined =>
  spans.find(span => span.name === name);
