/**
 * A generated program as a module `agent-trace rerun --agent` loads: the program is read from the
 * JSON file `AGENT_TRACE_PROGRAM` names, built as today's code, with its run options (and the
 * cassette `AGENT_TRACE_TAPE` names, for a program whose entry answers from one).
 */
import { readFileSync } from 'node:fs';
import { buildProgram } from './build-program.js';
import { programRunOptions } from './program-options.js';
import type { Program } from './program.js';

const file = process.env.AGENT_TRACE_PROGRAM;
if (file === undefined)
  throw new Error('Set AGENT_TRACE_PROGRAM to the JSON file of a generated program.');
const program = JSON.parse(readFileSync(file, 'utf8')) as Program;

export const runOptions = programRunOptions(program);
const tape = process.env.AGENT_TRACE_TAPE;
export default buildProgram(
  program,
  tape === undefined ? {} : { tape: { path: tape, mode: 'replay' } },
);
