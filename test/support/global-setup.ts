import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium, type ChromiumBinary } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: ChromiumBinary;
  }
}

/**
 * Finds (and, from its npm package, unpacks) the viewer tests' Chromium once for the whole run;
 * points the user's ledger of resumed states at a folder of the run's own, so tests never write
 * into the home folder (workers and the processes tests start inherit it).
 */
export default async function setup(project: TestProject): Promise<void> {
  process.env.AGENT_TRACE_RESUME_LEDGER ??= join(
    mkdtempSync(join(tmpdir(), 'agent-trace-tests-')),
    'resumed',
  );
  const binary = await findChromium();
  project.provide('chromium', binary);
}
