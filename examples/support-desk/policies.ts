/**
 * The desk's policies, added to its instructions as a conversation needs them: a feature whose
 * `transformRequest` appends a topic's policy once the customer has brought the topic up. A change
 * to one policy changes only the requests of the conversations that touch its topic, from the turn
 * they first do.
 */
import type { Feature } from '@agent-trace/core/features';

/** A policy: the words that bring its topic up, and what the desk is told. */
export interface Policy {
  readonly topic: RegExp;
  readonly text: string;
}

/** Today's policies. */
export const deskPolicies: Readonly<Record<string, Policy>> = {
  refund: {
    topic: /\brefund/i,
    text: 'Refunds up to $100 are granted at once; over that, a manager reviews them.',
  },
  address: { topic: /\baddress/i, text: 'An address can be changed until the order ships.' },
  cancel: { topic: /\bcancel/i, text: 'An order can be cancelled until it ships.' },
};

/** A planted change to one policy: refunds granted at once only up to $50. */
export const plantedPolicies: Readonly<Record<string, Policy>> = {
  ...deskPolicies,
  refund: {
    topic: /\brefund/i,
    text: 'Refunds up to $50 are granted at once; over that, a manager reviews them.',
  },
};

/** Appends to the instructions each policy whose topic a customer's message brought up. */
export function policyNotes(policies: Readonly<Record<string, Policy>> = deskPolicies): Feature {
  return {
    name: 'policy-notes',
    version: 2,
    forRun: () => ({
      transformRequest: ({ request }) => {
        const said = request.messages.flatMap(message =>
          message.role === 'user' ? [message.content] : [],
        );
        const notes = Object.values(policies).filter(policy =>
          said.some(text => policy.topic.test(text)),
        );
        if (notes.length === 0) return request;
        const text = notes.map(policy => `- ${policy.text}`).join('\n');
        return { ...request, instructions: `${request.instructions}\n\nPolicies:\n${text}` };
      },
    }),
  };
}
