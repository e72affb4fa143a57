// Postgres COPY text format: tab-separated, \N for NULL, backslash escapes.
import type { ValidationIssue } from '../validation/validate.js';

const NEEDS_ESCAPE = /[\\\t\n\r]/;

export function copyEscape(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(/[\\\t\n\r]/g, (ch) => (ch === '\\' ? '\\\\' : ch === '\t' ? '\\t' : ch === '\n' ? '\\n' : '\\r'));
}

/** One extraction_rows line: table_id, row_index, mask, issue_columns, values, validations. */
export function copyRowLine(
  tableId: string,
  rowIndex: number,
  values: string[],
  issues: Record<string, ValidationIssue[]> | null,
  mask: number,
): string {
  const issueColumns = issues ? `{${Object.keys(issues).join(',')}}` : '\\N';
  const validations = issues ? copyEscape(JSON.stringify(issues)) : '\\N';
  return `${tableId}\t${rowIndex}\t${mask}\t${issueColumns}\t${copyEscape(JSON.stringify(values))}\t${validations}\n`;
}
