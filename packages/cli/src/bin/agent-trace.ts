#!/usr/bin/env node
import { once } from 'node:events';
import { runCli } from '../program.js';

process.exitCode = await runCli(process.argv.slice(2), {
  // Waits for a full pipe to drain, so a long output is not held in memory.
  stdout: async text => {
    if (!process.stdout.write(`${text}\n`)) await once(process.stdout, 'drain');
  },
  stderr: text => process.stderr.write(`${text}\n`),
  env: process.env,
  isTTY: process.stdout.isTTY,
});
