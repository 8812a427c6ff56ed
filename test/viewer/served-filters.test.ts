// The served viewer's run filters: a value that is not valid answers 400 with a message of ours
// (what is wrong, what to give), never 500 with the database's own text.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveLibrary, type ServedViewer } from '@agent-trace/viewer';
import { writeDeskFolder } from '../support/trace-folder.js';

let served: ServedViewer;
beforeAll(async () => {
  const folder = mkdtempSync(join(tmpdir(), 'agent-trace-served-filters-'));
  await writeDeskFolder(folder, 2, 2);
  served = await serveLibrary(folder, { pollMs: 1000 });
});
afterAll(() => served.close());

const ask = async (query: string) => {
  const response = await fetch(`${served.url}api/runs?${query}`);
  return { status: response.status, text: await response.text() };
};

it.each([
  ['limit=1e308', /^Invalid --limit '1e308': expected a number from 0 to 100000\.$/],
  ['limit=-1', /^Invalid --limit '-1'/],
  ['limit=abc', /^Invalid --limit 'abc'/],
  ['limit=2.5', /^Invalid --limit '2\.5': expected a whole number\.$/],
  ['minCost=1e308', /^Invalid --min-cost '1e308'/],
  ['maxCost=Infinity', /^Invalid --max-cost 'Infinity'/],
  ['minDuration=NaN', /^Invalid --min-duration 'NaN'/],
  ['since=99999999999d', /^Invalid --since '99999999999d'/],
  ['until=999999999d', /^Invalid --until '999999999d': further back than a date can be\.$/],
  ['since=yesterday', /^Invalid --since 'yesterday'/],
  ['sort=nope', /^Invalid --sort 'nope': use one of time, cost, duration, tokens\.$/],
])('%s answers 400 with what is wrong', async (query, message) => {
  const answer = await ask(query);
  expect(answer.text).toMatch(message);
  expect(answer.status).toBe(400);
});

it('answers valid filters, large ones included', async () => {
  const answer = await ask('minCost=0&maxCost=1000000000&limit=100000&since=36500d&sort=cost');
  expect(answer.text).not.toMatch(/^Invalid/);
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.text)).toHaveLength(4);
});
