import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRule, checkRules, type ExtractionFacts } from '../../activities/flows/verify.js';
import type { VerifyRule } from '../../lib/flows.js';

const facts = (over: Partial<ExtractionFacts> = {}): ExtractionFacts => ({ extraction_id: 'ext_1', file_name: 'a.csv', rows_total: 5, rows_valid: 5, ...over });

describe('verify rules', () => {
  it('all_rows_valid names the invalid rows per file', () => {
    const rule: VerifyRule = { type: 'all_rows_valid', step_id: 'inv', table_key: 'lines' };
    assert.equal(checkRule(rule, 1, { extractions: [facts()] }).passed, true);
    const failed = checkRule(rule, 1, { extractions: [facts(), facts({ file_name: 'b.csv', rows_valid: 3 })] });
    assert.equal(failed.passed, false);
    assert.match(failed.message, /^Verify rule 1 'all_rows_valid' \(all rows of inv\.lines are valid\) failed: 2 row\(s\)/);
    assert.match(failed.message, /'b\.csv': 2/);
  });

  it('row counts add the files of the step, or read reconciliation counts', () => {
    const atLeast: VerifyRule = { type: 'row_count_at_least', step_id: 'inv', table_key: 'lines', value: 8 };
    assert.equal(checkRule(atLeast, 1, { extractions: [facts(), facts()] }).passed, true);
    const low = checkRule(atLeast, 2, { extractions: [facts()] });
    assert.equal(low.passed, false);
    assert.match(low.message, /inv\.lines has 5 row\(s\), expected at least 8/);
    const atMost: VerifyRule = { type: 'row_count_at_most', step_id: 'match', table_key: 'unmatched_1', value: 0 };
    assert.equal(checkRule(atMost, 1, { reconciliation: { matched: 3, mismatched: 0, unmatched_1: 0, unmatched_2: 1 } }).passed, true);
    assert.equal(checkRule(atMost, 1, { reconciliation: { matched: 3, mismatched: 0, unmatched_1: 2, unmatched_2: 1 } }).passed, false);
  });

  it('sum_equals_field compares each file with its own field, within the tolerance', () => {
    const rule: VerifyRule = { type: 'sum_equals_field', step_id: 'inv', table_key: 'lines', column: 'amount', field: 'total', tolerance: 0.005 };
    assert.equal(checkRule(rule, 1, { extractions: [facts({ column_sum: 60.0000001, field_value: '$60.00' })] }).passed, true);
    const off = checkRule(rule, 1, { extractions: [facts({ column_sum: 60, field_value: '61' })] });
    assert.equal(off.passed, false);
    assert.match(off.message, /sum of amount in inv\.lines equals field total\) failed: in 'a\.csv' the sum of amount is 60, field total is 61/);
    assert.match(checkRule(rule, 1, { extractions: [facts({ column_sum: 1, field_value: 'n/a' })] }).message, /not a number/);
    assert.equal(checkRule(rule, 1, { extractions: [] }).passed, false);
  });

  it('all_matched needs no mismatches and nothing unmatched; a rule name replaces the description', () => {
    const rule: VerifyRule = { type: 'all_matched', step_id: 'match', name: 'Books balance' };
    assert.equal(checkRule(rule, 1, { reconciliation: { matched: 4, mismatched: 0, unmatched_1: 0, unmatched_2: 0 } }).passed, true);
    const r = checkRule(rule, 3, { reconciliation: { matched: 4, mismatched: 1, unmatched_1: 0, unmatched_2: 0 } });
    assert.equal(r.passed, false);
    assert.match(r.message, /^Verify rule 3 'all_matched' \(Books balance\) failed: 4 matched, 1 mismatched/);
  });

  it('checkRules joins the failures', () => {
    const rules: VerifyRule[] = [
      { type: 'row_count_at_least', step_id: 'inv', table_key: 'lines', value: 1 },
      { type: 'row_count_at_most', step_id: 'inv', table_key: 'lines', value: 2 },
    ];
    const { results, failure } = checkRules(rules, () => ({ extractions: [facts()] }));
    assert.deepEqual(results.map((r) => r.passed), [true, false]);
    assert.match(failure!, /^Verify rule 2 'row_count_at_most'/);
  });
});
