/**
 * A benchmark worker compiled to plain JavaScript, as a user's built application runs agent-trace:
 * the workspace's TypeScript sources are bundled (esbuild, no `keepNames`), every other package
 * stays an import of its own installed build. Under tsx, every function made at run time also goes
 * through esbuild's `__name` helper (an `Object.defineProperty` each), which a built package
 * never pays and the peers, run from their published builds, never pay either.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

/** Where compiled workers go (inside bench/, so their imports resolve bench's node_modules). */
const outDirectory = 'bench/results/compiled';

/**
 * Leaves every package but agent-trace's own as an import of its installed build: by path, or by
 * name when it is one of `bare` (installed beside the output instead, as for the Node 22 cells).
 */
const installedPackagesOutside = (bare: readonly string[]): Plugin => ({
  name: 'installed-packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async args => {
      if (args.path.startsWith('@agent-trace/') || args.path.startsWith('node:')) return undefined;
      if (bare.some(name => args.path === name || args.path.startsWith(`${name}/`)))
        return { path: args.path, external: true };
      if (args.pluginData === 'outside') return undefined;
      const found = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: 'outside',
      });
      if (found.errors.length > 0) return undefined;
      return { path: found.path, external: true };
    });
  },
});

const compiled = new Map<string, Promise<string>>();

/**
 * `entry` (a bench worker) compiled once per process; the path of the `.mjs` to run with node.
 * With `into`, it is written there and the packages named in `bare` are imported by name, from
 * that folder's node_modules.
 */
export function compiledWorker(
  entry: string,
  into = outDirectory,
  bare: readonly string[] = [],
): Promise<string> {
  const key = `${entry} ${into}`;
  let outfile = compiled.get(key);
  if (outfile === undefined) {
    outfile = compile(entry, into, bare);
    compiled.set(key, outfile);
  }
  return outfile;
}

async function compile(entry: string, into: string, bare: readonly string[]): Promise<string> {
  mkdirSync(into, { recursive: true });
  const outfile = resolve(join(into, `${entry.split('/').at(-1)!.replace(/\.ts$/, '')}.mjs`));
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As Node resolves a package: its `exports` and `main`, never a bundler-only `module`.
    mainFields: ['main'],
    conditions: [],
    outfile,
    plugins: [installedPackagesOutside(bare)],
    logLevel: 'error',
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
  });
  return outfile;
}
