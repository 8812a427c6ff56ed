import type { FakeLLMStep } from '@agent-trace/testing';

/** A question for the runtime, with the answers a FakeLLM gives to it in `--fake` mode. */
export interface Question {
  readonly name: string;
  readonly text: string;
  /** The database is down for this question: the runtime's answer is degraded. */
  readonly databaseDown?: boolean;
  readonly script: readonly FakeLLMStep[];
}

const step = (thought: string, action: string, input: unknown) => ({
  text: `Thought: ${thought}\nAction: ${action}\nAction Input: ${JSON.stringify(input)}`,
});

/** The runtime's three questions: the database and the calculator, search, and an outage. */
export const questions: readonly Question[] = [
  {
    name: 'loyalty',
    text: 'Which customer has spent the most on paid orders, and what is a 15% loyalty discount on that amount?',
    script: [
      step('I need the paid totals per customer from the orders database.', 'database', {
        sql: 'SELECT c.name, SUM(o.total) AS spent FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = ? GROUP BY c.id ORDER BY spent DESC LIMIT 1',
        params: ['paid'],
      }),
      step('Aiko spent 120.5 on paid orders. Now 15% of it.', 'calculator', {
        expression: '120.5 * 15 / 100',
      }),
      {
        text: 'Thought: I have both numbers.\nFinal Answer: Aiko has spent the most on paid orders, 120.50; a 15% loyalty discount on that is 18.075 (about 18.08).',
      },
    ],
  },
  {
    name: 'traceparent',
    text: 'What does a traceparent header carry?',
    script: [
      // Not JSON (single quotes): the runtime says so, and the model writes it again.
      {
        text: "Thought: I should search the documents.\nAction: search\nAction Input: {'query': 'traceparent header'}",
      },
      step('The input must be JSON.', 'search', { query: 'traceparent header', top_k: 2 }),
      {
        text: 'Thought: The first result answers it.\nFinal Answer: A traceparent header carries a version, a 16-byte trace id, an 8-byte parent span id and flags, so a trace can cross process boundaries [trace-context].',
      },
    ],
  },
  {
    name: 'outage',
    text: 'How many paid orders are there?',
    databaseDown: true,
    script: [
      step('I will count the paid orders.', 'database', {
        sql: 'SELECT COUNT(*) AS paid FROM orders WHERE status = ?',
        params: ['paid'],
      }),
      {
        text: 'Thought: The database is unavailable, and no document holds the count.\nFinal Answer: I cannot count the paid orders now: the orders database is not answering. Please ask again later.',
      },
    ],
  },
];
