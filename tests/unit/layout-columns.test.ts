// Boundaries inside a ruled column that its producer did not draw: whitespace through every line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hiddenColumns } from '../../activities/documents/layout/columns.js';
import type { PageWord } from '../../activities/documents/layout/geometry.js';
import { groupLines } from '../../activities/documents/layout/lines.js';

const word = (text: string, x0: number, x1: number, y: number): PageWord => ({ text, x0, x1, y0: y, y1: y + 10, size: 10, font: 'F1', rtl: false });

test('a gap every line of a ruled column leaves is a column of its own', () => {
  const lines = groupLines([
    word('Alpha', 100, 130, 100), word('12', 200, 212, 100),
    word('Beta', 100, 124, 120), word('7', 206, 212, 120),
    word('Gamma', 100, 136, 140), word('30', 200, 212, 140),
  ]);
  const [x] = hiddenColumns(lines, 90, 230);
  assert.ok(x !== undefined && x > 136 && x < 200, String(x));
});

test('a label split by wide gaps in a few lines makes no column where other labels run across', () => {
  // "Total - net" and "Sub : all" come in pieces; the labels around them cross their gaps
  const lines = groupLines([
    word('Total', 100, 130, 100), word('-', 150, 155, 100), word('net', 175, 195, 100),
    word('Sub', 100, 120, 120), word(':', 140, 143, 120), word('all', 165, 185, 120),
    word('Consumption', 100, 190, 140),
    word('Investment', 100, 180, 160),
    word('Exports', 100, 150, 180),
  ]);
  assert.deepEqual(hiddenColumns(lines, 90, 230), []);
});
