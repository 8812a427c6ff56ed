/**
 * A line-aligned diff of two texts (longest common subsequence): unchanged lines are kept as
 * context (`context` lines around each change), removed lines are marked `-`, added lines `+`,
 * each with its line number in the expected (`-`) or actual (`+`) text.
 */
export function lineDiff(expected: readonly string[], actual: readonly string[], context = 2): string {
  const rows = expected.length;
  const columns = actual.length;
  const common: number[][] = Array.from({ length: rows + 1 }, () => new Array<number>(columns + 1).fill(0));
  for (let row = rows - 1; row >= 0; row--) {
    for (let column = columns - 1; column >= 0; column--) {
      common[row]![column] =
        expected[row] === actual[column]
          ? common[row + 1]![column + 1]! + 1
          : Math.max(common[row + 1]![column]!, common[row]![column + 1]!);
    }
  }
  const edits: { kind: ' ' | '-' | '+'; line: number; text: string }[] = [];
  let row = 0;
  let column = 0;
  while (row < rows || column < columns) {
    if (row < rows && column < columns && expected[row] === actual[column]) {
      edits.push({ kind: ' ', line: row + 1, text: expected[row]! });
      row++;
      column++;
    } else if (column < columns && (row === rows || common[row]![column + 1]! >= common[row + 1]![column]!)) {
      edits.push({ kind: '+', line: column + 1, text: actual[column]! });
      column++;
    } else {
      edits.push({ kind: '-', line: row + 1, text: expected[row]! });
      row++;
    }
  }
  const shown = new Set<number>();
  edits.forEach((edit, index) => {
    if (edit.kind === ' ') return;
    for (let near = Math.max(0, index - context); near <= Math.min(edits.length - 1, index + context); near++) shown.add(near);
  });
  const out: string[] = [];
  let previous = -1;
  for (const index of [...shown].sort((left, right) => left - right)) {
    if (previous !== -1 && index > previous + 1) out.push('  …');
    const edit = edits[index]!;
    out.push(`${edit.kind} ${String(edit.line).padStart(4)} ${edit.text}`);
    previous = index;
  }
  return out.join('\n');
}
