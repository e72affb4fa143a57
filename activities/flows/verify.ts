// Verify rules: each rule judged against facts the activity gathered (row counts, column sums,
// field values, reconciliation counts). Plain: no database, no Temporal.
import { describeRule, type VerifyRule } from '../../lib/flows.js';
import { numericValue } from '../validation/data-types.js';

/** One extraction of the rule's step, with what the rules need of its table. */
export interface ExtractionFacts {
  extraction_id: string;
  file_name: string;
  rows_total: number;
  rows_valid: number;
  /** sum of the rule's column (sum_equals_field), with the cells that were not numbers */
  column_sum?: number;
  non_numeric_cells?: number;
  /** the rule's field value (sum_equals_field) */
  field_value?: string;
}

export interface ReconciliationFacts {
  matched: number;
  mismatched: number;
  unmatched_1: number;
  unmatched_2: number;
}

export interface RuleFacts {
  extractions?: ExtractionFacts[];
  reconciliation?: ReconciliationFacts;
}

export interface RuleResult {
  rule: number;
  type: VerifyRule['type'];
  description: string;
  step_id: string;
  table_key?: string;
  passed: boolean;
  message: string;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

function rowCount(rule: VerifyRule, facts: RuleFacts): number {
  if (facts.reconciliation) return facts.reconciliation[rule.table_key as keyof ReconciliationFacts] ?? 0;
  return (facts.extractions ?? []).reduce((n, e) => n + e.rows_total, 0);
}

/** Judges one rule (`index` is 1-based, for messages). */
export function checkRule(rule: VerifyRule, index: number, facts: RuleFacts): RuleResult {
  const description = describeRule(rule);
  const base = { rule: index, type: rule.type, description, step_id: rule.step_id, ...(rule.table_key ? { table_key: rule.table_key } : {}) };
  const verdict = (passed: boolean, detail: string): RuleResult => ({
    ...base,
    passed,
    message: passed ? `Rule ${index} '${rule.type}' (${description}) passed: ${detail}` : `Verify rule ${index} '${rule.type}' (${description}) failed: ${detail}`,
  });
  const table = `${rule.step_id}.${rule.table_key ?? ''}`;
  switch (rule.type) {
    case 'all_rows_valid': {
      const bad = (facts.extractions ?? []).filter((e) => e.rows_valid < e.rows_total);
      const invalid = bad.reduce((n, e) => n + (e.rows_total - e.rows_valid), 0);
      return verdict(bad.length === 0, bad.length === 0
        ? `every row of ${table} is valid`
        : `${invalid} row(s) of ${table} have validation errors (${bad.map((e) => `'${e.file_name}': ${e.rows_total - e.rows_valid}`).join(', ')})`);
    }
    case 'row_count_at_least': {
      const n = rowCount(rule, facts);
      return verdict(n >= rule.value!, `${table} has ${n} row(s), expected at least ${rule.value}`);
    }
    case 'row_count_at_most': {
      const n = rowCount(rule, facts);
      return verdict(n <= rule.value!, `${table} has ${n} row(s), expected at most ${rule.value}`);
    }
    case 'sum_equals_field': {
      const problems: string[] = [];
      const checked: string[] = [];
      for (const e of facts.extractions ?? []) {
        const field = numericValue(e.field_value ?? '');
        const sum = round(e.column_sum ?? 0);
        if (field === null) {
          problems.push(`field ${rule.field} of '${e.file_name}' is '${e.field_value ?? ''}', not a number`);
        } else if (Math.abs(sum - field) > (rule.tolerance ?? 0) + 1e-9) {
          problems.push(`in '${e.file_name}' the sum of ${rule.column} is ${sum}, field ${rule.field} is ${field}`);
        } else {
          checked.push(`'${e.file_name}': ${sum}`);
        }
      }
      if (!facts.extractions?.length) problems.push(`step ${rule.step_id} has no extractions to check`);
      return verdict(problems.length === 0, problems.length ? problems.join('; ') : `sums equal the field (${checked.join(', ')})`);
    }
    case 'all_matched': {
      const r = facts.reconciliation ?? { matched: 0, mismatched: 0, unmatched_1: 0, unmatched_2: 0 };
      const passed = r.mismatched === 0 && r.unmatched_1 === 0 && r.unmatched_2 === 0;
      return verdict(passed, `${r.matched} matched, ${r.mismatched} mismatched, ${r.unmatched_1} unmatched in table 1, ${r.unmatched_2} unmatched in table 2`);
    }
  }
}

/** All rules in order; the first failure names the step's error. */
export function checkRules(rules: VerifyRule[], factsOf: (rule: VerifyRule) => RuleFacts): { results: RuleResult[]; failure: string | null } {
  const results = rules.map((rule, i) => checkRule(rule, i + 1, factsOf(rule)));
  const failed = results.filter((r) => !r.passed);
  return { results, failure: failed.length ? failed.map((r) => r.message).join('; ') : null };
}
