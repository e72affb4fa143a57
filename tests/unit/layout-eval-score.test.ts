// The evaluation's pure scoring (scripts/eval/score.ts) and its in-process planning (scripts/eval/direct.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreRows } from '../../scripts/eval/score.js';
import { parseCsv } from '../../scripts/eval/csv.js';
import { buildTemplate } from '../../scripts/eval/template.js';
import { extractRows, templateTablesOf } from '../../scripts/eval/direct.js';
import { planTables, plannedRows } from '../../activities/mapping/plan.js';

test('identical rows score 1; whitespace inside cells is collapsed', () => {
  const s = scoreRows([['a b', '1'], ['c', '2']], [['a  b', ' 1 '], ['c', '2']]);
  assert.equal(s.accuracy, 1);
  assert.equal(s.alignedRows, 2);
});

test('a wrong cell, a missing row and an extra row inside the span cost their cells', () => {
  const expected = [['a', '1'], ['b', '2'], ['c', '3']];
  // b missing, x extra between aligned rows, c has a wrong cell
  const s = scoreRows(expected, [['a', '1'], ['x', '9'], ['c', '4']]);
  assert.equal(s.matchedCells, 3);
  assert.equal(s.judgedCells, 2 + 2 + 2 + 2);
  assert.equal(s.accuracy, 3 / 8);
});

test('produced rows outside the reference excerpt are reported, not judged', () => {
  const s = scoreRows([['a', '1']], [['Title', ''], ['a', '1'], ['z', '0']]);
  assert.equal(s.accuracy, 1);
  assert.equal(s.unjudgedRows, 2);
});

test('csv with quotes and newlines', () => {
  assert.deepEqual(parseCsv('a,"b\nc","d""e"\n1,2,3\n'), [['a', 'b\nc', 'd"e'], ['1', '2', '3']]);
});

test('cells compare after NFKC, one dash, and no padding inside brackets', () => {
  const s = scoreRows([['（純額)', 'G‐1', '( 498,5)']], [['(純額)', 'G-1', '(498,5)']]);
  assert.equal(s.accuracy, 1);
});

test('template: a header on two reference rows, merged, matched against the emitted header; a second table under its own header', () => {
  const reference = [
    ['', 'Group', '', ''],
    ['', 'Alpha', 'Beta', 'Gamma'],
    ['r1', '1', '2', '3'],
    ['r2', '', '', ''],
    ['', 'Delta', 'Epsilon', ''],
    ['r3', '4', '5', ''],
  ];
  const t = buildTemplate(reference, [['', 'Group Alpha', 'Beta', 'Gamma'], ['', 'Delta', 'Epsilon']]);
  assert.equal(t.mode, 'header');
  assert.deepEqual(t.tables.map((x) => x.columns.map((c) => c.name)), [['Group Alpha', 'Beta', 'Gamma'], ['Delta', 'Epsilon']]);
  // the row r2 has text only in the unnamed column: blank in the template's columns
  assert.deepEqual(t.expectedRows, [['1', '2', '3'], ['', '', ''], ['4', '5']]);
  // and it aligns with the pipeline's blank row for it
  assert.equal(scoreRows(t.expectedRows, [['1', '2', '3'], ['', '', ''], ['4', '5']]).accuracy, 1);
});

test('template: a spanning row above a later header, packed left by the reference, is that header, not a row of the table above', () => {
  const reference = [
    ['', 'Alpha', 'Beta'],
    ['r1', '1', '2'],
    ['r2', '', ''],
    ['', 'Group', 'Gamma', ''],
    ['', 'Delta', 'Epsilon', 'Gamma'],
    ['r3', '4', '5', '6'],
  ];
  const t = buildTemplate(reference, [['', 'Alpha', 'Beta'], ['', 'Delta', 'Epsilon', 'Gamma']]);
  assert.deepEqual(t.tables.map((x) => x.columns.map((c) => c.name)), [['Alpha', 'Beta'], ['Delta', 'Epsilon', 'Gamma']]);
  // r2 (named in the stub column) stays a row of the first table; the spanning row is not scored
  assert.deepEqual(t.expectedRows, [['1', '2'], ['', ''], ['4', '5', '6']]);
});

test('template: figures name no column, so a reference with no header is compared by position', () => {
  const t = buildTemplate([['1', '100'], ['2', '101']], [['1', '100']]);
  assert.equal(t.mode, 'position');
  assert.deepEqual(t.expectedRows, [['1', '100'], ['2', '101']]);
});

test('direct extraction plans tables as the pipeline does: by position only the tables planTables takes', () => {
  const samples = [
    { name: 'page 1 table 1', page: 1, rows: [['note', 'text'], ['more', 'text']] },
    { name: 'page 1 table 2', page: 1, rows: [['a', '1', '2'], ['', '', ''], ['b', '3', '4']] },
  ];
  const template = buildTemplate([['a', '1', '2'], ['b', '3', '4']], samples.map((s) => s.rows[0]!));
  assert.equal(template.mode, 'position');
  const plans = planTables(samples, templateTablesOf(template.tables));
  const r = extractRows(samples, template.tables);
  // The template's one table by position takes the table of its shape, not every table; blank rows are skipped.
  assert.deepEqual(r.rows, [['a', '1', '2'], ['b', '3', '4']]);
  assert.deepEqual(r.rows, plannedRows(samples, plans[0]));
  assert.equal(r.note, 'by position: page 1 table 2');
});

test('direct extraction under a matched header: rows below the header, projected onto the template columns', () => {
  const samples = [{ name: 'page 1 table 1', page: 1, rows: [['Report'], ['Qty', 'Name'], ['2', 'x'], [' ', ''], ['3', 'y']] }];
  const template = buildTemplate([['Name', 'Qty'], ['x', '2'], ['y', '3']], [['Qty', 'Name']]);
  const r = extractRows(samples, template.tables);
  assert.deepEqual(r.rows, [['x', '2'], ['y', '3']]);
  assert.equal(r.note, 'plan: page 1 table 1');
});
