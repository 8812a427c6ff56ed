/**
 * `@agent-trace/trace/model`: the one model of a trace that the CLI, the viewer's page and the
 * exporters share, free of Node's modules so the page can bundle it.
 */
export { buildRunTrees, isSpanNode } from './span-tree.js';
export type { RunTree, SpanNode } from './span-tree.js';
export { mapSpanIndex, SpanPlacer } from './span-placer.js';
export type { PlacedEvent, Placement, SpanIndex } from './span-placer.js';
export { emptyTally, runTotals, tallyEvent } from './run-totals.js';
export { errorKind, errorText } from './error-text.js';
export { featureEventText, transformText } from './feature-text.js';
export { evaluationText, feedbackScoreText, feedbackText, judgmentText } from './judgment-text.js';
export { planReasons } from './plan-reasons.js';
export { reasoningText } from './reasoning-text.js';
export type { RunTally, RunTotals } from './run-totals.js';
