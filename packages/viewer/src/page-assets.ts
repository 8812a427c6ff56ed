import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AgentTraceError } from '@agent-trace/core';

/** The viewer page's script and styles, as built by `scripts/build-app.mjs`. */
export interface PageAssets {
  readonly script: string;
  readonly style: string;
  /** The script's SHA-256, base64: what the page's content security policy allows to run. */
  readonly scriptHash: string;
}

/** Thrown when the viewer's page script has not been built. */
export class ViewerAssetsMissingError extends AgentTraceError {
  constructor(file: string, cause: unknown) {
    super({
      message: `The viewer's page script is missing (${file}): it is built from the package's app/ folder. In a clone of agent-trace, run 'npx -y pnpm@10 install' (which builds it) or 'npx -y pnpm@10 --filter @agent-trace/viewer build:app'.`,
      cause,
    });
    this.name = 'ViewerAssetsMissingError';
  }
}

let cached: PageAssets | undefined;

/** Reads the built page script and styles once; later calls reuse them. */
export function pageAssets(): PageAssets {
  if (cached !== undefined) return cached;
  const require = createRequire(import.meta.url);
  const read = (specifier: string): string => {
    let file = specifier;
    try {
      file = require.resolve(specifier);
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new ViewerAssetsMissingError(file, error);
    }
  };
  const script = read('@agent-trace/viewer/page-script');
  if (/<\/script/i.test(script))
    throw new Error('The viewer page script holds "</script": it cannot be inlined safely.');
  cached = {
    script,
    style: read('@agent-trace/viewer/page-style'),
    scriptHash: createHash('sha256').update(script).digest('base64'),
  };
  return cached;
}
