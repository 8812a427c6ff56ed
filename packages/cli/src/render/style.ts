/** Terminal styling that turns itself off for pipes and under `NO_COLOR`. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const codes = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  magenta: [35, 39],
} as const;

/** A style that colours when `color` is true and returns text unchanged otherwise. */
export function createStyle(color: boolean): Style {
  const paint = (name: keyof typeof codes) => (text: string) =>
    color ? `\u001b[${codes[name][0]}m${text}\u001b[${codes[name][1]}m` : text;
  return {
    bold: paint('bold'),
    dim: paint('dim'),
    red: paint('red'),
    green: paint('green'),
    yellow: paint('yellow'),
    cyan: paint('cyan'),
    magenta: paint('magenta'),
  };
}

/**
 * Whether to colour output: never with `NO_COLOR` (https://no-color.org), always with
 * `FORCE_COLOR` (not `0`), else only on a terminal.
 */
export function shouldColor(environment: NodeJS.ProcessEnv, stream: { isTTY?: boolean }): boolean {
  if (environment.NO_COLOR !== undefined && environment.NO_COLOR !== '') return false;
  if (environment.FORCE_COLOR !== undefined) return environment.FORCE_COLOR !== '0';
  return stream.isTTY === true;
}
