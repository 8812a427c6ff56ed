/**
 * `@agent-trace/core/spans`: which events open and close spans (and which judge a run after its end), with no schema and no runtime
 * beside it, for code that must stay small (the viewer's page bundles it).
 */
export {
  isJudgment,
  isSpanEnd,
  isSpanStart,
  judgmentKinds,
  spanEndFor,
} from './kernel/protocol/span-kinds.js';
export type { SpanStartName } from './kernel/protocol/span-kinds.js';
