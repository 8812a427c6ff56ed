/**
 * The seam hands features small values, never the loop's own objects: the seam's file imports
 * none of the turn's or the run state's files, and no feature imports anything of `kernel/run/`
 * but the seam and the run's option types (lint holds each file; this holds the whole).
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../packages/core/src');

/** The files of core that `file` imports or re-exports, types included, relative to src. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(imported => imported.fileName)
    .filter(name => name.startsWith('.'))
    .map(name => relative(src, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
}

const loopInsides = [
  'kernel/run/turn/agent-turn.ts',
  'kernel/run/frame/run-state.ts',
  'kernel/run/seam/seam.ts',
  'kernel/run/turn/conversation.ts',
  'kernel/run/turn/call-model.ts',
  'kernel/run/tools/tool-phase.ts',
  'kernel/run/turn/agent-outcome.ts',
];

describe('the feature seam', () => {
  it("imports none of the loop's insides", () => {
    const imported = importsOf(resolve(src, 'kernel/run/seam/feature.ts'));
    expect(imported.length).toBeGreaterThan(5);
    expect(imported.filter(file => loopInsides.includes(file))).toEqual([]);
  });

  it('is all the features see of the turn', () => {
    const reaching = sourceFiles(resolve(src, 'features')).flatMap(file =>
      importsOf(file)
        .filter(to => to.startsWith('kernel/run/'))
        .filter(
          to => to !== 'kernel/run/seam/feature.ts' && to !== 'kernel/run/frame/kernel-options.ts',
        )
        .map(to => `${relative(src, file)} → ${to}`),
    );
    expect(reaching).toEqual([]);
  });
});
