/**
 * The served viewer of one trace in a process of its own, so its memory is its own: prints its
 * address as a JSON line and serves until killed.
 * Usage: served-worker.ts <trace.jsonl>
 */
import { serveFiles } from '@agent-trace/viewer';

const [file] = process.argv.slice(2) as [string];
const served = await serveFiles([file]);
console.log(JSON.stringify({ url: served.url, pid: process.pid }));
