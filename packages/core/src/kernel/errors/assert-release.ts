import { ConfigurationError } from './configuration-error.js';

/**
 * Checks the `release` option (of a run, or of a bridge's recorder): a string of 1 to 200
 * characters, when given; throws a `ConfigurationError` that says how to fix it otherwise.
 */
export function assertRelease(release: unknown): void {
  if (release === undefined) return;
  if (typeof release === 'string' && release.length > 0 && release.length <= 200) return;
  throw new ConfigurationError({
    option: 'release',
    message: `Invalid release: expected the application's release as a string of 1 to 200 characters, such as a git commit (actual: ${typeof release === 'string' ? `${release.length} characters` : typeof release}). Pass e.g. release: process.env.GIT_COMMIT, or leave it out.`,
  });
}
