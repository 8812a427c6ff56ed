/**
 * The desk's eval: `agent-trace eval examples/regress/desk.eval.ts` runs it on a few requests;
 * `agent-trace regress … --eval examples/regress/desk.eval.ts` scores recorded runs with its scorers.
 */
import { defineEval } from '@agent-trace/evals';
import { requests, supportDesk } from './desk.js';
import { deskScorers } from './scorers.js';

export default defineEval({
  name: 'desk',
  data: requests(10).map(input => ({ input })),
  task: supportDesk('v2'),
  scorers: deskScorers,
});
