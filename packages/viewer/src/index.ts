export { ViewerAssetsMissingError } from './page-assets.js';
export { serveTraces } from './trace-server.js';
export type { ServedTraceFile, ServeTracesOptions, TraceServer } from './trace-server.js';
export { diffView, rerunView, traceView } from './trace-views.js';
export { scriptSafeJson, viewerHtml } from './viewer-html.js';
export { viewerDataElementId } from './viewer-data.js';
export type { RunDiffData, TraceFileData, ViewerData } from './viewer-data.js';
