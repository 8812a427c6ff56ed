import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from './load-cases.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-trace-cases-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const cases = [
  { id: 'a', input: 'Refund order 7', expected: { output: 'Refunded order 7.' } },
  { input: { order: 8 }, metadata: { tier: 'gold' } },
];

describe('loadCases', () => {
  it('reads the same cases from JSONL, JSON and YAML', async () => {
    const jsonl = file('cases.jsonl', `${cases.map(each => JSON.stringify(each)).join('\n')}\n\n`);
    const json = file('cases.json', JSON.stringify(cases));
    const yaml = file(
      'cases.yaml',
      `cases:
  - id: a
    input: Refund order 7
    expected: { output: Refunded order 7. }
  - input: { order: 8 }
    metadata: { tier: gold }
`,
    );
    for (const path of [jsonl, json, yaml]) expect(await loadCases(path)).toEqual(cases);
  });

  it('reads CSV: input, expected and id columns, the others metadata', async () => {
    const csv = file(
      'cases.csv',
      'id,input,expected,tier\na,"Refund order 7, please",Refunded,gold\n,Hi,,\n',
    );
    expect(await loadCases(csv)).toEqual([
      {
        id: 'a',
        input: 'Refund order 7, please',
        expected: 'Refunded',
        metadata: { tier: 'gold' },
      },
      { input: 'Hi', metadata: { tier: '' } },
    ]);
  });

  it('says which line or item is not a case, and why', async () => {
    await expect(loadCases(file('bad.jsonl', '{"input":"ok"}\n{"expected":1}\n'))).rejects.toThrow(
      `${join(dir, 'bad.jsonl')}:2: input: a case needs an input (a case is { input, expected?, metadata?, id? })`,
    );
    await expect(loadCases(file('torn.jsonl', '{"input":"ok"}\n{"input":\n'))).rejects.toThrow(
      `${join(dir, 'torn.jsonl')}:2: `,
    );
    await expect(loadCases(file('bad.yaml', 'cases:\n  - input: [unclosed\n'))).rejects.toThrow(
      `${join(dir, 'bad.yaml')}:`,
    );
    await expect(loadCases(file('cases.txt', 'input'))).rejects.toThrow(
      'a data file is .jsonl, .json, .yaml, .yml or .csv',
    );
  });
});
