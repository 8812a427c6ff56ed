import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The TypeScript sources under `folder` (`.ts`, `.tsx`), tests and declarations left out, and
 * what is built or installed (`dist/`, `dist-app/`, `node_modules/`) not entered.
 */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap(entry => {
    const path = join(folder, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'dist-app'].includes(entry.name) ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : [];
  });
}
