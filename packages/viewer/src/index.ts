export { ViewerAssetsMissingError } from './page-assets.js';
export { serveTraces } from './trace-server.js';
export type { ServedTraceFile, ServeTracesOptions, TraceServer } from './trace-server.js';
export { diffView, rerunView, traceView } from './trace-views.js';
export { experimentView } from './experiment-view.js';
export type { ExperimentSide } from './experiment-view.js';
export { scriptSafeJson, viewerHtml } from './viewer-html.js';
export { viewerDataElementId } from './viewer-data.js';
export type {
  CaseScoreData,
  ExperimentCaseData,
  ExperimentData,
  ExperimentScorerData,
  ExperimentSideData,
  RunDiffData,
  ScoreChange,
  TraceFileData,
  ViewerData,
} from './viewer-data.js';
