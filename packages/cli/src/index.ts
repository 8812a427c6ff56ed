export { pageLimitMb } from './commands/page-limit.js';
export { followCommand } from './commands/follow.js';
export type { FollowOptions } from './commands/follow.js';
export { createStyle } from './render/style.js';
export type { Style } from './render/style.js';
export { createProgram, runCli } from './program.js';
export { processIo } from './process-io.js';
export type { CliIo } from './program.js';
