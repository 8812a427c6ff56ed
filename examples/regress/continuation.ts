/**
 * What goes on from a divergence in the example: the desk's model, answering from a cassette.
 * In a real desk this is a provider's model (`openai('gpt-4o-mini')`) recorded once to the
 * cassette; here the desk's own scripted model stands in for it, so the suite needs no key.
 * `record-continuation.ts` records it; `replay` (the default) sends nothing, and a request the
 * cassette lacks fails and names the closest recorded one.
 */
import { fileURLToPath } from 'node:url';
import type { LanguageModel } from '@agent-trace/core';
import type { CacheMode } from '@agent-trace/core/cache';
import { withCassette } from '@agent-trace/testing';
import { deskModel } from './desk.js';

export const continuationCassette = fileURLToPath(
  new URL('continuation.cassette.jsonl', import.meta.url),
);

export function continuationModel(mode: CacheMode = 'replay'): LanguageModel {
  return withCassette(deskModel(), continuationCassette, { mode });
}
