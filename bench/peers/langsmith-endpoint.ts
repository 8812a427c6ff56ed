/**
 * A LangSmith endpoint on 127.0.0.1 for LangGraph.js's tracing mode: it reads every request to the
 * end and accepts it (`/info` answers with an empty configuration, so the client uses its
 * defaults). It stands where LangSmith would, as the OTLP receiver stands for a collector.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running endpoint: where to point `LANGSMITH_ENDPOINT`, and what it received. */
export interface LangSmithEndpoint {
  readonly url: string;
  /** Requests that carried runs (every POST / PATCH). */
  readonly ingestRequests: number;
  readonly bytes: number;
  close(): Promise<void>;
}

/** Starts a LangSmith endpoint that accepts everything. */
export async function startLangSmithEndpoint(): Promise<LangSmithEndpoint> {
  let ingestRequests = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      if (request.method !== 'GET') ingestRequests++;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get ingestRequests() {
      return ingestRequests;
    },
    get bytes() {
      return bytes;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
}
