/**
 * The support desk as a multi-turn eval: each case a customer, its task a conversation with them,
 * scored by what the whole conversation did. `compareEvals` of today's desk and a changed one names
 * the customers the change broke.
 */
import {
  askedAgain,
  conversationTask,
  conversationToolSuccess,
  defineEval,
  goalReached,
  turnsToResolution,
} from '@agent-trace/evals';
import { customers, customerUser, type Customer } from './customers.js';
import { deskFeatures, supportDesk } from './desk.js';
import { deskPolicies, type Policy } from './policies.js';

/** The eval of the desk under `policies` (today's unless given). */
export const deskEval = (policies: Readonly<Record<string, Policy>> = deskPolicies) =>
  defineEval<Customer, unknown, unknown>({
    name: 'support desk conversations',
    data: customers.map(customer => ({ id: customer.id, input: customer })),
    task: conversationTask(supportDesk(), customerUser, { maxTurns: 8 }),
    scorers: [
      goalReached(),
      turnsToResolution({ maxTurns: 8 }),
      conversationToolSuccess(),
      askedAgain(),
    ],
    runOptions: { features: deskFeatures(policies) },
  });
