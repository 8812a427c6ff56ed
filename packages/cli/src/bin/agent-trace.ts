#!/usr/bin/env node
import { processIo } from '../process-io.js';
import { runCli } from '../program.js';
import { endWhenDone } from './end-when-done.js';

/** The commands that run code the user wrote (an agent or eval module), which may leave handles open. */
const runsUserCode = new Set(['rerun', 'fork', 'eval']);

const argv = process.argv.slice(2);
const code = await runCli(argv, processIo());
process.exitCode = code;
if (runsUserCode.has(argv[0] ?? '')) endWhenDone(code);
