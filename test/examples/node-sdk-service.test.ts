import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);

describe('docs/examples/node-sdk-service.ts, as a process', () => {
  it('serves a request whose trace holds the agent under the server span and the tool call under execute_tool', async () => {
    const { stdout } = await exec(
      process.execPath,
      ['--import', 'tsx', 'docs/examples/node-sdk-service.ts'],
      { env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', NO_COLOR: '1' } },
    );
    expect(stdout).toContain('GET /convert → 1 USD is 0.92 EUR.');
    const tree = stdout
      .split('\n')
      .filter(line => line.includes('  trace '))
      .map(line => line.replace(/ {2}trace [0-9a-f]{32}$/, ''));
    expect(tree).toEqual([
      'GET  CLIENT',
      '  GET  SERVER',
      '    invoke_workflow rates  INTERNAL',
      '      invoke_agent rates  INTERNAL',
      '        chat fake-model  CLIENT',
      '        execute_tool fetch_rate  INTERNAL',
      '          GET  CLIENT',
      '            GET  SERVER',
      '        chat fake-model  CLIENT',
    ]);
    const traceIds = new Set(stdout.match(/trace [0-9a-f]{32}/g));
    expect(traceIds.size).toBe(1);
  });
});
