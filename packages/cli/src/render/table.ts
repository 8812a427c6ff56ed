/**
 * Rows as aligned columns for a terminal: a header, then one line a row, two spaces between
 * columns; the columns in `right` are right-aligned (numbers), the others left-aligned.
 */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number> = new Set(),
): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map(row => (row[column] ?? '').length)));
  return all.map(row =>
    row
      .map((cell, column) =>
        right.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd(),
  );
}
