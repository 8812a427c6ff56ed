// Bundles the viewer's page (app/main.tsx, Preact and the styles) into dist-app/viewer.js and
// dist-app/viewer.css, which the page builder inlines into every HTML file it writes.
import { build } from 'esbuild';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  absWorkingDir: root,
  entryPoints: ['app/main.tsx'],
  outfile: 'dist-app/viewer.js',
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['chrome111', 'firefox115', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
