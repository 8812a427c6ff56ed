/**
 * Ten customers of the support desk, each a persona with a goal, played by a script so that the
 * example needs no key: what they say turn by turn, and the words in the desk's reply that mean
 * they got what they came for.
 */
import { simulatedUser, type SimulatedUser } from '@agent-trace/evals';

/** A customer: who they are, what they want, what they say, and what reaching it reads like. */
export interface Customer {
  readonly id: string;
  readonly persona: string;
  readonly goal: string;
  readonly says: readonly string[];
  /** Words of the desk's reply that mean the goal is reached. */
  readonly wants: string;
}

/** The ten customers. */
export const customers: readonly Customer[] = [
  {
    id: 'ana',
    persona: 'Ana, polite, whose teapot arrived broken',
    goal: 'a refund for order 41',
    says: ['Hi.', 'My order 41 arrived broken, I want a refund.', 'Can you refund order 41?'],
    wants: 'Refunded $80',
  },
  {
    id: 'ben',
    persona: 'Ben, in a hurry',
    goal: 'to know where order 42 is',
    says: ['Where is order 42?'],
    wants: 'Order 42 (a rug) is shipped',
  },
  {
    id: 'chloe',
    persona: 'Chloé, who moved house',
    goal: 'order 43 sent to her new address',
    says: ['Please change the address of order 43 to 5 Rue Cler, Paris.', 'Thanks!'],
    wants: 'will now go to 5 Rue Cler',
  },
  {
    id: 'dev',
    persona: 'Dev, who takes his time',
    goal: 'a refund for the lamp, order 44',
    says: ['Hello.', 'I bought a lamp.', 'It is order 44.', 'I would like a refund for order 44.'],
    wants: 'Refunded $30',
  },
  {
    id: 'eli',
    persona: 'Eli, who changed her mind',
    goal: 'order 45 cancelled',
    says: ['Cancel order 45 please.'],
    wants: 'Order 45 is cancelled',
  },
  {
    id: 'fay',
    persona: 'Fay, chatty, whose mirror cracked',
    goal: 'a refund for order 46',
    says: [
      'Hi there!',
      'I have a question.',
      'It is about a mirror.',
      'Where is order 46?',
      'It came, but it is cracked.',
      'So I want a refund for order 46.',
      'A refund for order 46, please.',
      'Please refund order 46.',
    ],
    wants: 'Refunded $95',
  },
  {
    id: 'gus',
    persona: 'Gus, who ordered a desk too big for his room',
    goal: 'his money back for order 47, or someone looking at it',
    says: ['Cancel order 47.', 'Then I want a refund for order 47.'],
    wants: 'a manager will review',
  },
  {
    id: 'hana',
    persona: 'Hana, waiting for a vase',
    goal: 'the status of order 48',
    says: ['What is the status of order 48?'],
    wants: 'Order 48 (a vase) is processing',
  },
  {
    id: 'ivo',
    persona: 'Ivo, impatient, who forgets to say which order',
    goal: 'to know where his clock is',
    says: ['Where is my stuff??', 'I said where is my order!!', 'Order 49, where is it?'],
    wants: 'Order 49 (a clock) is shipped',
  },
  {
    id: 'jo',
    persona: 'Jo, whose shelf went to an old address',
    goal: 'the shelf, order 50, sent elsewhere or refunded',
    says: [
      'Change the address of order 50 to 1 Park Row, Hull.',
      'Then I want a refund for order 50.',
      'Please refund order 50.',
    ],
    wants: 'Refunded $60',
  },
];

/** A customer as a simulated user: their script, stopping once the desk's reply has what they want. */
export const customerUser = (customer: Customer): SimulatedUser =>
  simulatedUser({
    name: customer.id,
    persona: customer.persona,
    goal: customer.goal,
    script: customer.says,
    stopWhen: transcript =>
      transcript.some(entry => entry.role === 'agent' && entry.text.includes(customer.wants)),
  });
