/** How the model is asked in the wire-level bench: one JSON answer, or a stream of chunks. */
export type WireMode = 'json' | 'stream';

/** The mode named on a worker's command line. */
export function wireModeOf(text: string): WireMode {
  if (text !== 'json' && text !== 'stream') throw new Error(`Unknown mode '${text}'.`);
  return text;
}
