/** One RFC 4180 line: fields quoted only when they need it. */
export function csvLine(cells: string[]): string {
  return `${cells.map((cell) => (/[",\r\n]/.test(cell) || /^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',')}\r\n`;
}
