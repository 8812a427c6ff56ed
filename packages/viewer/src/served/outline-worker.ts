/** Where a served page's outline worker is: the server answers it with {@link outlineWorkerSource}. */
export const outlineWorkerPath = '/outline-worker.js';

/**
 * The served page's outline worker: fetches a run's outline (16 bytes a row, 16 MB for a million
 * rows) off the page's thread and hands its bytes over without a copy. Fetched on the page's own
 * thread, a big outline's body arrived as one task of tens of milliseconds, a frame the page
 * missed each time a growing run's outline was fetched again.
 */
export const outlineWorkerSource = `'use strict';
self.onmessage = async ({ data }) => {
  const { id, address } = data;
  try {
    const response = await fetch(address);
    if (!response.ok) throw new Error('The server answered ' + response.status + '.');
    const buffer = await response.arrayBuffer();
    self.postMessage({ id, buffer }, [buffer]);
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
};
`;
