/**
 * Small helpers agent-trace's packages share, public for extensions and bridges
 * (`@agent-trace/core/util`): loading an optional peer with a clear error when it is missing,
 * canonical JSON and hashes (what the trace's request hashes are made of), backoff and clocks, and
 * the virtual time a clock (a rerun's) waits on.
 */
export { importPeer, MissingPeerError } from './kernel/util/import-peer.js';
export { canonicalJson } from './kernel/util/canonical-json.js';
export { hashString } from './kernel/util/hash.js';
export { defined } from './kernel/util/defined.js';
export { ordinal } from './kernel/util/ordinal.js';
export { sleepOn } from './kernel/util/clock.js';
export { VirtualTime } from './kernel/util/virtual-time.js';
export { nextTask } from './kernel/util/next-task.js';
export { backoffDelayMs } from './kernel/util/backoff.js';
export type { BackoffOptions } from './kernel/util/backoff.js';
export { addUsage, zeroUsage } from './kernel/protocol/usage.js';
