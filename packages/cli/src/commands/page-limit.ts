/**
 * The most trace (MiB of JSONL) one page is made of by default. A page holds its trace whole, as
 * one string in Node and as objects in the browser tab, so its size is the tab's memory: past it,
 * `view` serves the trace instead (the served viewer holds an outline and fetches rows in
 * windows), and refuses to write a page with `--out` or `--diff`.
 */
export const pageLimitMb = 64;
