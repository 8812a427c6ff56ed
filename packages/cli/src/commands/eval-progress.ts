/** The width of the progress bar, in characters. */
const barWidth = 24;

/**
 * One line of progress for a terminal: the eval, a bar, and how many runs ended of all, e.g.
 * `refunds ▕██████░░░░░░▏ 12/24`.
 */
export function progressLine(name: string, done: number, total: number): string {
  const filled = total === 0 ? barWidth : Math.round((done / total) * barWidth);
  return `${name} ▕${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}▏ ${done}/${total}`;
}
