/** A table with a header row, columns as wide as their widest cell (the last column unpadded). */
export function textTable(header: string[], body: string[][]): string {
  const rows = [header, ...body];
  const widths = header.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '))
    .join('\n');
}
