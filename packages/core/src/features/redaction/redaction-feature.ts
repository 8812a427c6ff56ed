import type { Feature } from '../../kernel/run/seam/feature.js';
import { Redactor, type RedactionOptions } from './redactor.js';

/** The run option of the redaction feature. */
export interface RedactionRunOptions {
  /**
   * Secrets replaced by stable placeholders before any sink or chunk sees them; `false` turns it
   * off. @defaultValue the known secret shapes (API keys, bearer tokens, Authorization fields)
   */
  redaction?: RedactionOptions | false;
}

/**
 * Redaction as a feature of the run: unless `redaction: false`, a {@link Redactor} with the run's
 * options cleans the trace, the chunks, the conversation's hashes and the returned errors.
 */
export const redactionFeature: Feature<RedactionRunOptions> = {
  name: 'redaction',
  version: 2,
  forRun: ({ options }) =>
    options.redaction === false ? undefined : { redaction: new Redactor(options.redaction) },
};
