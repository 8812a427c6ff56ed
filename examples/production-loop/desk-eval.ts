/**
 * The eval that keeps the fix: the dataset grown from the runs customers marked down, each case's
 * expected answer corrected by a person, run against a version of the desk.
 */
import { defineEval, exactMatch, trajectoryMatch } from '@agent-trace/evals';
import { shippingDesk, type DeskVersion } from './desk.js';

export function deskEval(dataset: string, version: DeskVersion) {
  return defineEval({
    name: 'late-orders',
    data: dataset,
    task: shippingDesk(version),
    scorers: [exactMatch(), trajectoryMatch()],
    threshold: 1,
  });
}
