/**
 * A run filter's field is not valid (a cost that is not a number, a limit out of range, a duration
 * that is not one): what a command answers with exit 2 and the served viewer with 400.
 */
export class RunFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunFilterError';
  }
}
