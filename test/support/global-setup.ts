import type { TestProject } from 'vitest/node';
import { findChromium, type ChromiumBinary } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: ChromiumBinary;
  }
}

/** Finds (and, from its npm package, unpacks) the viewer tests' Chromium once for the whole run. */
export default async function setup(project: TestProject): Promise<void> {
  const binary = await findChromium();
  project.provide('chromium', binary);
}
