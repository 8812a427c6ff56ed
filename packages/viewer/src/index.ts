export { ViewerAssetsMissingError } from './page-assets.js';
export { serveFiles, serveLibrary } from './served/served-viewer.js';
export type { ServedViewer, ServeOptions } from './served/served-viewer.js';
export type { LibrarySourceOptions } from './served/run-sources.js';
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
  GraphFact,
  RunDiffData,
  RunSummary,
  ServedData,
  SummaryTotals,
  ScoreChange,
  TraceFileData,
  ViewerData,
} from './viewer-data.js';
