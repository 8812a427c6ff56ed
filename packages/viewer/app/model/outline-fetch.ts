import { outlineWorkerPath } from '../../src/served/outline-worker.js';

interface Waiting {
  readonly address: string;
  readonly resolve: (buffer: ArrayBuffer) => void;
  readonly reject: (error: Error) => void;
}

/** The page's outline worker once made; null when the page cannot have one. */
let worker: Worker | null | undefined;
const waiting = new Map<number, Waiting>();
let asked = 0;

/** An outline fetched on the page's own thread: what a page without the worker does. */
async function fetchHere(address: string): Promise<ArrayBuffer> {
  const response = await fetch(address);
  if (!response.ok) throw new Error(`The server answered ${response.status}.`);
  return response.arrayBuffer();
}

/** The worker, made on first use; null when it cannot be made or failed to load. */
function outlineWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(outlineWorkerPath);
  } catch {
    return (worker = null);
  }
  worker.onmessage = ({
    data,
  }: MessageEvent<{ id: number; buffer?: ArrayBuffer; error?: string }>) => {
    const asking = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.buffer !== undefined) asking?.resolve(data.buffer);
    else asking?.reject(new Error(data.error ?? 'The outline could not be fetched.'));
  };
  // A worker that did not load (a page served by an older server): what it was asked is fetched
  // here, and so is everything after.
  worker.onerror = event => {
    event.preventDefault();
    worker?.terminate();
    worker = null;
    for (const { address, resolve, reject } of waiting.values())
      fetchHere(address).then(resolve, reject);
    waiting.clear();
  };
  return worker;
}

/**
 * A served run's outline, fetched by the page's outline worker and handed over without a copy, so
 * its body (16 MB for a million rows) never arrives on the page's thread; fetched here when the
 * page has no worker.
 */
export function fetchOutline(address: string): Promise<ArrayBuffer> {
  const fetcher = outlineWorker();
  if (fetcher === null) return fetchHere(address);
  const id = ++asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, { address, resolve, reject });
    fetcher.postMessage({ id, address });
  });
}
