// The lookups a ruled table makes per word and per cell: which column an x falls in, and whether
// rules run along a cell's edge. Both search (a page may be ruled into hundreds of cells), so
// their edges are pinned here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnAt } from '../../activities/documents/layout/cells.js';
import type { Ruling } from '../../activities/documents/layout/geometry.js';
import { ruledAt } from '../../activities/documents/layout/grid.js';

test('an x falls in the column whose right edge lies beyond it; outside the table, in the first or last column', () => {
  const xs = [100, 150, 220, 300, 410];
  const at = (x: number): number => columnAt(xs, x);
  assert.deepEqual([40, 100, 149.9, 150, 219, 220, 299, 300, 409, 410, 900].map(at), [0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 3]);
  assert.deepEqual([0, 60, 500].map((x) => columnAt([50, 80], x)), [0, 0, 0]);
});

test('a cell edge is ruled where rules near it cover the share asked, in one piece or several', () => {
  const rule = (at: number, from: number, to: number): Ruling => ({ horizontal: true, at, from, to });
  // Rules out of order, as a page draws them: pieces at 200 (one drawn 1 pt lower), others away from it.
  const isRuled = ruledAt([rule(400, 0, 500), rule(201, 160, 200), rule(100, 0, 500), rule(200, 100, 140), rule(207, 0, 500)]);
  assert.equal(isRuled(200, 100, 200), true, 'two pieces cover 80 of 100');
  assert.equal(isRuled(200, 100, 200, 0.9), false, 'but not 90');
  assert.equal(isRuled(200, 100, 150), true);
  assert.equal(isRuled(203, 150, 200), true, 'a rule 2 pt off is the same line');
  assert.equal(isRuled(300, 0, 500), false, 'no rule near 300');
  assert.equal(isRuled(100, 0, 500), true);
  assert.equal(isRuled(400, 450, 600), false, 'the rule at 400 ends at 500');
  assert.equal(ruledAt([])(200, 0, 10), false);
});
