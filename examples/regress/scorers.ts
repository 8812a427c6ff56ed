/** What a desk run is judged on, recorded or today's. */
import { noErrors, scorer, stopReasonIs } from '@agent-trace/evals';

/** 1 when a refund request got its refund (a `refund` call that did not fail); 1 for the rest. */
export const refunded = scorer(
  'refunded',
  ({ case: { input }, trace }) =>
    !/refund/i.test(String(input)) ||
    trace.some(
      event => event.event === 'tool_end' && event.tool === 'refund' && event.error === undefined,
    ),
);

export const deskScorers = [stopReasonIs('completed'), noErrors(), refunded];
