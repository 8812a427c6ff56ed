/**
 * `@agent-trace/core/react`: the ReAct text format an agent with `toolCalling: 'react'` speaks,
 * for reading and writing it outside a run (parsers, splitters of streamed text, scripted models).
 */
export {
  parseReActStep,
  reactInstructions,
  reactLabels,
  reactObservation,
  reactStopSequences,
} from './features/react/react-format.js';
export type { ReActStep } from './features/react/react-format.js';
export { ReActSplitter } from './features/react/react-splitter.js';
export type { TextPiece, TextPieceLabel, TextSplitter } from './kernel/run/turn/text-splitter.js';
export { malformedAnswerProblems } from './kernel/protocol/malformed-answer.js';
export type { MalformedAnswerProblem } from './kernel/protocol/malformed-answer.js';
