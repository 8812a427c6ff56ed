/**
 * `@agent-trace/core/redaction`: the redactor every run uses (unless `redaction: false`) to keep
 * secrets out of its trace, chunks and returned errors, for use on text of your own.
 */
export { Redactor } from './features/redaction/redactor.js';
export type { RedactionOptions } from './features/redaction/redactor.js';
export type { RedactionRunOptions } from './features/redaction/redaction-feature.js';
