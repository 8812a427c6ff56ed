import { RunFilterError } from './run-filter-error.js';

/** A duration as `30s`, `30m`, `2h` or `7d`, in milliseconds; `flag` names it in the error. */
export function durationMs(text: string, flag: string): number {
  const match = /^(\d{1,9})\s*(s|m|h|d)$/.exec(text.trim());
  if (match === null)
    throw new RunFilterError(
      `Invalid ${flag} '${text}': use a whole number (up to 9 digits) and s, m, h or d (e.g. 30m, 2h, 7d).`,
    );
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    match[2] as 's' | 'm' | 'h' | 'd'
  ];
  return Number(match[1]) * unit;
}
