#!/usr/bin/env node
import { runCli } from '../program.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: text => process.stdout.write(`${text}\n`),
  stderr: text => process.stderr.write(`${text}\n`),
  env: process.env,
  isTTY: process.stdout.isTTY,
});
