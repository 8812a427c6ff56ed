/** The weekly-sales request's plans and tools, shared by the planner tests. */
import { fakeTool } from '@agent-trace/testing';
import { z } from 'zod';

/** A plan that reads the sales from the warehouse, which is offline: its fetch step fails. */
export const firstPlan = `\`\`\`yaml
workflow:
  name: weekly-sales
  steps:
    - name: fetch
      tool: fetch_sales
      input: { week: 47, source: warehouse }
    - name: summary
      tool: summarise
      depends_on: [fetch]
\`\`\``;

/** The plan after the failure: the backup has the sales. */
export const secondPlan = `workflow:
  name: weekly-sales-from-backup
  steps:
    - name: fetch
      tool: fetch_sales
      input: { week: 47, source: backup }
    - name: summary
      tool: summarise
      depends_on: [fetch]
      condition: steps.fetch.output.rows > 0
`;

/** The tools the sales plans use: the warehouse is offline, the backup answers. */
export function tools() {
  return [
    fakeTool<{ week: number; source: string }>('fetch_sales', {
      description: 'Fetch a week of sales from a source (warehouse or backup).',
      input: z.object({ week: z.number(), source: z.enum(['warehouse', 'backup']) }),
      respond: ({ week, source }) => {
        if (source === 'warehouse') throw new Error('warehouse is offline');
        return { week, rows: 3, total: 1200 };
      },
    }),
    fakeTool<{ week: number; rows: number; total: number }>('summarise', {
      description: 'Summarise fetched sales.',
      input: z.object({ week: z.number(), rows: z.number(), total: z.number() }),
      respond: ({ week, total }) => `Week ${week}: ${total} in sales.`,
    }),
  ];
}
