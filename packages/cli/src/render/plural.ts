/** A count with its noun, singular for one: `1 run`, `2 runs`. */
export const plural = (count: number, noun: string): string =>
  `${count} ${noun}${count === 1 ? '' : 's'}`;
