/**
 * The bench's workers built with esbuild. `compiledWorker`: compiled to plain JavaScript, as a
 * user's built application runs agent-trace: the workspace's TypeScript sources are bundled (no
 * `keepNames`), every other package stays an import of its own installed build. Under tsx, every
 * function made at run time also goes through esbuild's `__name` helper (an `Object.defineProperty`
 * each), which a built package never pays and the peers, run from their published builds, never
 * pay either. `bundle`: everything inlined, for a process's memory as a deployed CLI has it.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';

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

/** What every bench worker's build shares: one ES module for plain node, named after its entry. */
function workerBuild(entry: string, into: string) {
  const outfile = resolve(join(into, `${entry.split('/').at(-1)!.replace(/\.ts$/, '')}.mjs`));
  return {
    outfile,
    options: {
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'error',
      // Gives bundled CommonJS dependencies (gRPC, for the CLI's export) the `require` of Node.
      banner: {
        js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
      },
    } satisfies BuildOptions,
  };
}

async function compile(entry: string, into: string, bare: readonly string[]): Promise<string> {
  mkdirSync(into, { recursive: true });
  const { outfile, options } = workerBuild(entry, into);
  await build({
    ...options,
    target: 'node20',
    // As Node resolves a package: its `exports` and `main`, never a bundler-only `module`.
    mainFields: ['main'],
    conditions: [],
    plugins: [installedPackagesOutside(bare)],
  });
  return outfile;
}

/**
 * The tokenizer core imports only to estimate tokens for cost: a built application loads it on
 * first use, while a bundle parses it at start (its ranks are 5 MB of source, about 25 MB of RSS
 * in every command), so it stays outside the bundle.
 */
const loadedOnUse = ['js-tiktoken', '@duckdb/node-api'];

/**
 * A worker bundled (its dependencies inlined) into `directory`, for measuring a process's memory
 * as a deployed CLI has it: tsx alone holds ~50 MB. What the code imports with `import()` goes in
 * chunks of its own, loaded when first imported, as a built application's modules are.
 */
export async function bundle(entry: string, directory: string): Promise<string> {
  const { outfile, options } = workerBuild(entry, directory);
  const { outfile: _whole, ...split } = options;
  await build({
    ...split,
    external: loadedOnUse,
    splitting: true,
    outdir: directory,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
  });
  return outfile;
}
