import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CsvParser } from '../../activities/documents/spreadsheet/csv-parser.js';
import { detectDelimiter } from '../../activities/documents/spreadsheet/delimiter.js';

function parse(text: string, delimiter = ','): string[][] {
  const parser = new CsvParser(delimiter);
  return [...parser.push(text), ...parser.end()];
}

function parseInPieces(pieces: string[], delimiter = ','): string[][] {
  const parser = new CsvParser(delimiter);
  const rows: string[][] = [];
  for (const piece of pieces) rows.push(...parser.push(piece));
  rows.push(...parser.end());
  return rows;
}

// Deterministic so a failing split can be reproduced.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('CsvParser', () => {
  it('splits plain rows and keeps empty cells in place', () => {
    assert.deepEqual(parse('a,b,c\n1,,3\n4,5,\n'), [
      ['a', 'b', 'c'],
      ['1', '', '3'],
      ['4', '5', ''],
    ]);
  });

  it('handles quoted cells with delimiters and doubled quotes', () => {
    assert.deepEqual(parse('"a,b","say ""hi""",plain\n"""",""\n'), [
      ['a,b', 'say "hi"', 'plain'],
      ['"', ''],
    ]);
  });

  it('keeps newlines inside quotes, whatever their kind', () => {
    assert.deepEqual(parse('id,note\n1,"line one\nline two"\n2,"a\r\nb\rc"\n'), [
      ['id', 'note'],
      ['1', 'line one\nline two'],
      ['2', 'a\r\nb\rc'],
    ]);
  });

  it('accepts CRLF, LF and lone CR line ends, mixed', () => {
    assert.deepEqual(parse('a,b\r\nc,d\re,f\ng,h'), [
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
      ['g', 'h'],
    ]);
  });

  it('skips blank lines and lines of only delimiters, and ignores a trailing empty line', () => {
    assert.deepEqual(parse('\n\na,b\n\r\n,,\n\nc,d\n\n'), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
    assert.deepEqual(parse(''), []);
    assert.deepEqual(parse('\r\n'), []);
  });

  it('keeps ragged rows as they are', () => {
    assert.deepEqual(parse('a,b,c\n1\n1,2,3,4\n'), [['a', 'b', 'c'], ['1'], ['1', '2', '3', '4']]);
  });

  it('treats quotes inside unquoted cells and after a closed quote as text', () => {
    assert.deepEqual(parse('5" screen,x\n"ab"cd,e\n'), [
      ['5" screen', 'x'],
      ['abcd', 'e'],
    ]);
  });

  it('keeps spaces around cells', () => {
    assert.deepEqual(parse(' a , b \n'), [[' a ', ' b ']]);
  });

  it('keeps the text of an unterminated quote as the last cell', () => {
    assert.deepEqual(parse('a,b\n1,"open\nstill open'), [
      ['a', 'b'],
      ['1', 'open\nstill open'],
    ]);
    assert.deepEqual(parse('x,"ends on quote ""'), [['x', 'ends on quote "']]);
  });

  it('parses the last row without a final newline', () => {
    assert.deepEqual(parse('a,b\n1,2'), [
      ['a', 'b'],
      ['1', '2'],
    ]);
    assert.deepEqual(parse('a,'), [['a', '']]);
  });

  it('uses the given delimiter only', () => {
    assert.deepEqual(parse('a\tb,c\t"d\te"\n', '\t'), [['a', 'b,c', 'd\te']]);
    assert.deepEqual(parse('1,5;2,5\n', ';'), [['1,5', '2,5']]);
  });

  it('returns rows as each chunk completes them', () => {
    const parser = new CsvParser(',');
    assert.deepEqual(parser.push('a,b\nc,'), [['a', 'b']]);
    assert.deepEqual(parser.push('d\ne'), [['c', 'd']]);
    assert.deepEqual(parser.end(), [['e']]);
  });

  const tricky =
    'name,"quoted, with comma",x\r\n' +
    '"multi\r\nline ""cell""",,"""q"""\r\n' +
    '\r\n' +
    'plain,5" tall,"a""b"\rcr-only,"",end\n' +
    ',,\n' +
    '"ab"cd,"x\ny",last\r\n' +
    'unterminated,"tail ""q"" and\r\nmore';

  it('gives the same rows when fed one character at a time', () => {
    const whole = parse(tricky);
    assert.equal(whole.length, 6);
    assert.deepEqual(parseInPieces([...tricky]), whole);
  });

  it('gives the same rows for random splits', () => {
    const whole = parse(tricky);
    const random = seededRandom(42);
    for (let round = 0; round < 500; round++) {
      const pieces: string[] = [];
      let at = 0;
      while (at < tricky.length) {
        const size = Math.floor(random() * 7);
        pieces.push(tricky.slice(at, at + size));
        at += size;
      }
      assert.deepEqual(parseInPieces(pieces), whole, `round ${round}: ${JSON.stringify(pieces)}`);
    }
  });

  it('appends to the array it is given', () => {
    const parser = new CsvParser(',');
    const rows = [['earlier']];
    assert.equal(parser.push('a,b\nc', rows), rows);
    assert.deepEqual(rows, [['earlier'], ['a', 'b']]);
  });

  it('stops with a DocumentError when an unclosed quote swallows a huge file', () => {
    const parser = new CsvParser(',');
    const megabyte = 'x'.repeat(1024 * 1024);
    parser.push('a,"');
    assert.throws(
      () => {
        for (let k = 0; k < 40; k++) parser.push(megabyte);
      },
      { name: 'DocumentError', message: /unclosed/ },
    );
  });

  it('rejects a delimiter it cannot use', () => {
    assert.throws(() => new CsvParser('"'));
    assert.throws(() => new CsvParser(',,'));
  });
});

describe('detectDelimiter', () => {
  it('finds the semicolon of a European export despite decimal commas', () => {
    const sample = 'Name;Price;Qty\nApple;1,50;3\nPear;2,25;10\nPlum;0,99;7\n';
    assert.equal(detectDelimiter(sample, true), ';');
  });

  it('finds tabs and pipes', () => {
    assert.equal(detectDelimiter('a\tb\tc\n1\t2\t3\n', true), '\t');
    assert.equal(detectDelimiter('a|b|c\n1|2|3\n', true), '|');
  });

  it('ignores delimiters inside quotes', () => {
    const sample = 'name;city\n"Smith, John";"Paris, France"\n"Doe, Jane";"Rome, Italy"\n';
    assert.equal(detectDelimiter(sample, true), ';');
  });

  it('prefers the most consistent count over the most frequent character', () => {
    // Three commas on most lines, but one semicolon on every line.
    const sample = 'a,b;c,d,e\n1,2;3,4,5\nx;y\n6,7;8,9,0\n';
    assert.equal(detectDelimiter(sample, true), ';');
  });

  it('does not count a cut-off last line of a partial sample', () => {
    const sample = 'a;b\n1;2\n3;4\n5,6,7,8,9,';
    assert.equal(detectDelimiter(sample, false), ';');
  });

  it('falls back to the comma for a single column', () => {
    assert.equal(detectDelimiter('name\nAda\nGrace\n', true), ',');
  });
});
