/**
 * `pnpm conformance:fuzz [--runs 5000] [--seeds 1,2,3]`: the conformance generator for longer than
 * the test suite runs it. Each seed's programs are checked (P0, P1, P3, P4, P5); a failure is
 * shrunk to a smallest program and saved as a row of the conformance table
 * (`test/conformance/found/`), which the suite then checks like every other row. Exit 1 when
 * anything was found.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { checkProgram } from '../test/conformance/generator/check-program.js';
import { programArbitrary, type Program } from '../test/conformance/generator/program.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5000' },
    seeds: { type: 'string', default: '1,2,3' },
  },
});
const runs = Number(values.runs);
const seeds = values.seeds.split(',').map(Number);
const folder = 'test/conformance/found';

/** Saves `program` as a row of the table, with what it found; gives the row's file. */
function saveRow(program: Program, finding: string, seed: number): string {
  const slug = `found-${seed}-${Date.now().toString(36)}`;
  const file = join(folder, `${slug}.ts`);
  const first = finding.split('\n')[0] ?? finding;
  // What it found, as the report said it: the property and the first divergence.
  const said = finding.split('\n').slice(0, 4).join('\n * ');
  writeFileSync(
    file,
    `/**\n * Found by the program generator (seed ${seed}):\n * ${said.replaceAll('*/', '* /')}\n */\nimport { buildProgram } from '../generator/build-program.js';\nimport { programRunOptions } from '../generator/program-options.js';\nimport type { Program } from '../generator/program.js';\nimport { foundShape } from '../harness/found-shape.js';\n\nconst program: Program = ${JSON.stringify(program, null, 2)};\n\nexport const shape = foundShape(${JSON.stringify(`generated (seed ${seed}): ${first.slice(0, 60)}`)}, '${file}', program);\nexport const runOptions = programRunOptions(program);\nexport default buildProgram(program);\n`,
  );
  writeIndex();
  return file;
}

/** The found rows' index, every row file in the folder. */
function writeIndex(): void {
  const rows = readdirSync(folder)
    .filter(name => name.endsWith('.ts') && name !== 'index.ts')
    .sort();
  writeFileSync(
    join(folder, 'index.ts'),
    `/** The programs the generator found failing, each a row of the conformance table (\`pnpm conformance:fuzz\` adds them). */\nimport type { Shape } from '../harness/shape.js';\n\n/** Every found program's row, in the order they were found. */\nexport const foundShapes = async (): Promise<Shape[]> =>\n  Promise.all([\n${rows.map(name => `    import('./${name.replace(/\.ts$/, '.js')}').then(module => module.shape),`).join('\n')}\n  ]);\n`,
  );
}

let found = 0;
for (const seed of seeds) {
  const started = performance.now();
  let checked = 0;
  const result = await fc.check(
    fc.asyncProperty(programArbitrary, async program => {
      checked++;
      const finding = await checkProgram(program);
      if (finding !== undefined) throw new Error(finding);
    }),
    { seed, numRuns: runs },
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!result.failed) {
    process.stdout.write(`seed ${seed}: ${runs} programs, P0-P5 hold (${seconds} s)\n`);
    continue;
  }
  found++;
  const [program] = result.counterexample ?? [];
  const finding =
    result.errorInstance instanceof Error
      ? result.errorInstance.message
      : String(result.errorInstance);
  const file = program === undefined ? '(no program)' : saveRow(program, finding, seed);
  process.stdout.write(
    `seed ${seed}: failed after ${checked} checks (${seconds} s), shrunk and saved as ${file}:\n${finding}\n`,
  );
}
process.exitCode = found === 0 ? 0 : 1;
