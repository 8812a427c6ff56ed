import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tool } from '@agent-trace/core';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));

const Row = z.object({ region: z.string(), week: z.number(), amount: z.number().nullable() });
const Region = z.object({ region: z.string(), amounts: z.array(z.number()) });
const Analysis = z.object({
  region: z.string(),
  total: z.number(),
  mean: z.number(),
  best: z.number(),
  weeks: z.number(),
});

/** Reads a CSV of sales (region, week, amount) from this folder. */
export const dataCollector = tool({
  name: 'data_collector',
  description: 'Read a CSV file of sales (region, week, amount) from the data folder.',
  input: z.object({
    source: z.string().regex(/^[\w.-]+\.csv$/, 'a .csv file name in the data folder'),
  }),
  execute: async ({ source }) => {
    const text = await readFile(join(here, source), 'utf8').catch(async () => {
      const files = (await readdir(here)).filter(file => file.endsWith('.csv'));
      throw new Error(`there is no ${source} in the data folder; it has ${files.join(', ')}`);
    });
    const [header, ...lines] = text.trim().split('\n');
    if (header !== 'region,week,amount')
      throw new Error(`${source} has the columns '${header}'; expected region,week,amount`);
    const rows = lines.map(line => {
      const [region = '', week = '', amount = ''] = line.split(',');
      return { region, week: Number(week), amount: amount === '' ? null : Number(amount) };
    });
    return { source, rows };
  },
});

/** Drops missing and negative amounts and groups the rest by region. */
export const dataPreprocessor = tool({
  name: 'data_preprocessor',
  description: 'Drop rows with missing or negative amounts and group the amounts by region.',
  input: z.object({ source: z.string(), rows: z.array(Row) }),
  execute: ({ rows }) => {
    const byRegion = new Map<string, number[]>();
    for (const { region, amount } of rows) {
      if (amount === null || amount < 0) continue;
      byRegion.set(region, [...(byRegion.get(region) ?? []), amount]);
    }
    return [...byRegion].map(([region, amounts]) => ({ region, amounts }));
  },
});

/** One region's total, mean and best week. */
function analyse({ region, amounts }: z.infer<typeof Region>): z.infer<typeof Analysis> {
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  return {
    region,
    total,
    mean: Math.round((total / amounts.length) * 100) / 100,
    best: Math.max(...amounts),
    weeks: amounts.length,
  };
}

/** Analyses every region's amounts (workflow.yaml's step, on the regions whole). */
export const analyzer = tool({
  name: 'analyzer',
  description: "Analyse every region's weekly amounts: total, mean and best week of each.",
  input: z.array(Region),
  execute: regions => regions.map(analyse),
});

/** Analyses one region's amounts (a planned step runs it for each region, all at once). */
export const regionAnalyzer = tool({
  name: 'region_analyzer',
  description: "Analyse one region's weekly amounts: total, mean and best week.",
  input: Region,
  execute: analyse,
});

/** Writes the analyses as a short report, best region first. */
export const reportGenerator = tool({
  name: 'report_generator',
  description: 'Write a sales report from the regional analyses.',
  input: z.array(Analysis),
  execute: analyses => {
    const ranked = [...analyses].sort((a, b) => b.total - a.total);
    const lines = ranked.map(
      (a, index) =>
        `${index + 1}. ${a.region}: ${a.total} over ${a.weeks} week${a.weeks === 1 ? '' : 's'} (mean ${a.mean}, best ${a.best})`,
    );
    return `Sales by region\n${lines.join('\n')}`;
  },
});

/** Every tool of the pipeline. */
export const pipelineTools = [
  dataCollector,
  dataPreprocessor,
  analyzer,
  regionAnalyzer,
  reportGenerator,
];
