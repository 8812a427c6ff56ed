import { pageAssets } from './page-assets.js';
import { viewerDataElementId, type ViewerData } from './viewer-data.js';

const htmlEscapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML: markup characters become entities. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, character => htmlEscapes[character] ?? character);
}

/**
 * JSON that can sit inside a `<script type="application/json">` element: every `<` is written
 * `\u003c`, so no `</script>` or `<!--` in the data can end or change the element.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * One self-contained HTML page showing `data`: the viewer's script, its styles and the trace are
 * inlined; nothing is fetched from the network (a served page fetches only from its own server).
 * The page's content security policy lets only the viewer's own script run (by its hash), so
 * markup inside a model answer or a tool result, which the viewer always shows as text, could not
 * run even if it reached the page as markup.
 */
export function viewerHtml(data: ViewerData): string {
  const { script, style, scriptHash } = pageAssets();
  const policy = [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "connect-src 'self'",
    // A served page fetches big outlines in a worker its server serves.
    ...(data.mode === 'serve' ? ["worker-src 'self'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(data.title)} · agent-trace</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    `<script type="application/json" id="${viewerDataElementId}">${scriptSafeJson(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
