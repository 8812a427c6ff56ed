export { FeedbackError } from './feedback-error.js';
export { readFeedback } from './read-feedback.js';
export { recordFeedback } from './record-feedback.js';
export type { FeedbackInput, RecordFeedbackOptions } from './record-feedback.js';
