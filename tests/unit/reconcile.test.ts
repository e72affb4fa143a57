import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareValues, normalizeText, reconcile, reconcilePreview, type SourceRow } from '../../activities/flows/reconcile.js';

const row = (index: number, values: Record<string, string>, file = 'a.csv'): SourceRow => ({ extraction_id: 'ext_a', file_name: file, index, values });
const same = (...keys: string[]) => keys.map((k) => ({ column_1: k, column_2: k }));

describe('compareValues', () => {
  it('compares numbers within the tolerance and reports the difference', () => {
    assert.deepEqual(compareValues('10.00', '10.004', 0.01), { equal: true, difference: 0.004 });
    assert.deepEqual(compareValues('10.00', '10.50', 0.01), { equal: false, difference: 0.5 });
    assert.equal(compareValues('1,234.50', '1234.5', 0).equal, true);
    assert.equal(compareValues('$12.00', '12', 0).equal, true);
  });
  it('compares text trimmed, whitespace collapsed, case ignored', () => {
    assert.deepEqual(compareValues(' Acme  Corp ', 'acme corp', 0), { equal: true, difference: null });
    assert.equal(compareValues('Acme', 'Acme Ltd', 0).equal, false);
    assert.equal(compareValues('', '', 0).equal, true);
    assert.equal(compareValues('', '0', 0).equal, false);
  });
  it('normalises text', () => {
    assert.equal(normalizeText('  A\t b  '), 'a b');
  });
});

describe('reconcile', () => {
  const left = [
    row(0, { id: 'A-1', amount: '10.00', note: 'x' }),
    row(1, { id: 'A-2', amount: '20.00', note: 'y' }),
    row(2, { id: 'A-3', amount: '30.00', note: 'z' }),
    row(3, { id: '', amount: '1', note: '' }),
  ];
  const right = [
    row(0, { ref: 'a-2', total: '25.00', note: 'y' }, 'b.csv'),
    row(1, { ref: 'A-1', total: '10.001', note: 'x' }, 'b.csv'),
    row(2, { ref: 'A-9', total: '5', note: '' }, 'b.csv'),
  ];
  const options = { matchOn: [{ column_1: 'id', column_2: 'ref' }], compare: [{ column_1: 'amount', column_2: 'total' }], tolerance: 0.01 };

  it('splits rows into matched, mismatched and unmatched on each side', () => {
    const result = reconcile(left, right, options);
    assert.deepEqual(result.summary, { rows_1: 4, rows_2: 3, matched: 1, mismatched: 1, unmatched_1: 2, unmatched_2: 1 });
    assert.deepEqual(result.matched[0]!.key, { id: 'A-1' });
    assert.equal(result.matched[0]!.row_2.index, 1);
    assert.deepEqual(result.mismatched[0]!.differences, [{ column_1: 'amount', column_2: 'total', value_1: '20.00', value_2: '25.00', difference: 5 }]);
    assert.deepEqual(result.unmatched_1.map((r) => r.index), [2, 3]);
    assert.deepEqual(result.unmatched_2.map((r) => r.values.ref), ['A-9']);
  });

  it('pairs duplicate keys in order and leaves the surplus unmatched', () => {
    const a = [row(0, { k: '1', v: 'a' }), row(1, { k: '1', v: 'b' }), row(2, { k: '1', v: 'c' })];
    const b = [row(0, { k: '1', v: 'a' }), row(1, { k: '1', v: 'x' })];
    const result = reconcile(a, b, { matchOn: same('k'), compare: same('v'), tolerance: 0 });
    assert.deepEqual(result.summary, { rows_1: 3, rows_2: 2, matched: 1, mismatched: 1, unmatched_1: 1, unmatched_2: 0 });
    assert.equal(result.unmatched_1[0]!.values.v, 'c');
  });

  it('matches on several columns', () => {
    const a = [row(0, { k: '1', d: '2024-01-01' }), row(1, { k: '1', d: '2024-01-02' })];
    const b = [row(0, { k: '1', d: '2024-01-02' })];
    const result = reconcile(a, b, { matchOn: same('k', 'd'), compare: [], tolerance: 0 });
    assert.equal(result.matched[0]!.row_1.index, 1);
    assert.equal(result.summary.unmatched_1, 1);
  });

  it('handles empty sides', () => {
    assert.deepEqual(reconcile([], [], options).summary, { rows_1: 0, rows_2: 0, matched: 0, mismatched: 0, unmatched_1: 0, unmatched_2: 0 });
    assert.equal(reconcile(left, [], options).summary.unmatched_1, 4);
  });

  it('previews at most `limit` entries of each list', () => {
    const many = Array.from({ length: 150 }, (_, i) => row(i, { k: String(i), v: '1' }));
    const preview = reconcilePreview(reconcile(many, many, { matchOn: same('k'), compare: same('v'), tolerance: 0 }), 100);
    assert.equal(preview.matched.length, 100);
    assert.equal(preview.summary.matched, 150);
    assert.equal(preview.truncated, true);
  });
});
