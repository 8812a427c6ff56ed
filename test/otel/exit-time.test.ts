/**
 * A program exporting through the environment (`@agent-trace/trace/register`) ends within the
 * export timeout (1.5 s) and half a second after its run, whatever the collector does, and says on
 * stderr how many spans it could not send and why: a collector that accepts and never answers, one
 * that resets every connection, and a port where nothing listens; gRPC and http/protobuf. All on
 * 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const servers: Server[] = [];

async function listening(answer: (socket: Socket) => void): Promise<number> {
  const server = createServer(answer);
  servers.push(server);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const ports: Record<string, number> = {};
beforeAll(async () => {
  ports.silent = await listening(() => undefined);
  ports.reset = await listening(socket => socket.resetAndDestroy());
  // A port that was free a moment ago: nothing listens there.
  const closed = createServer();
  await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
  ports.refused = (closed.address() as AddressInfo).port;
  await new Promise(resolve => closed.close(resolve));
});
afterAll(() => {
  for (const server of servers) server.close();
});

describe('a program exporting to a collector that does not take its spans', () => {
  for (const protocol of ['grpc', 'http/protobuf'])
    it(`ends within the export timeout + 0.5 s and says what it dropped (${protocol})`, async () => {
      for (const collector of ['silent', 'reset', 'refused']) {
        const endpoint = `http://127.0.0.1:${ports[collector]}`;
        const { stdout, stderr } = await exec(
          process.execPath,
          [
            '--import',
            'tsx',
            '--import',
            '@agent-trace/trace/register',
            'test/fixtures/exit-after-run.ts',
          ],
          {
            env: {
              ...process.env,
              TRACE_OTLP_ENDPOINT: endpoint,
              OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
            },
            timeout: 15_000,
          },
        );
        const after = Number(/exit after (\d+) ms/.exec(stdout)?.[1]);
        expect(after, `${collector}: ${stdout}`).toBeLessThanOrEqual(1500 + 500);
        expect(stderr, collector).toMatch(
          new RegExp(`^agent-trace: 3 spans not exported to ${endpoint}: .+$`, 'm'),
        );
      }
    }, 60_000);
});
