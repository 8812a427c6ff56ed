/**
 * `@agent-trace/core/sse`: a run's chunks as server-sent events, served (`chunkResponse`) and read
 * back (`readChunkEventStream`).
 */
export {
  chunkEventStream,
  chunkResponse,
  ChunkStreamError,
  encodeChunkEvent,
  readChunkEventStream,
} from './runner/chunk-sse.js';
export type { ChunkStreamEnd } from './runner/chunk-sse.js';
