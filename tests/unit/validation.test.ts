import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDate, isPlainNumber, matchesType, parseNumber } from '../../activities/validation/data-types.js';
import { TableValidator } from '../../activities/validation/validate.js';
import type { TemplateField } from '../../lib/template.js';

const field = (key: string, extra: Partial<TemplateField>): TemplateField => ({ key, name: key.toUpperCase(), data_type: 'string', required: false, validations: [], ...extra });

describe('data types', () => {
  it('recognises plain numbers exactly as -?\\d{1,15}(\\.\\d{1,15})? would', () => {
    const pattern = /^-?\d{1,15}(\.\d{1,15})?$/;
    const integer = /^-?\d{1,15}$/;
    const samples = ['0', '-7', '42', '3.5', '-0.25', '.5', '5.', '-', '', '1.2.3', '1e5', ' 1', '1 ', '+1', '١٢', '123456789012345', '1234567890123456', '1.123456789012345', '1.1234567890123456', '--1', '12a'];
    for (const s of samples) {
      assert.equal(isPlainNumber(s, true), pattern.test(s), `decimal ${JSON.stringify(s)}`);
      assert.equal(isPlainNumber(s, false), integer.test(s), `integer ${JSON.stringify(s)}`);
    }
  });
  it('parses numbers with grouping, parentheses and comma decimals', () => {
    assert.equal(parseNumber('1,234.50'), 1234.5);
    assert.equal(parseNumber('(12.00)'), -12);
    assert.equal(parseNumber('1.234,50', { decimalSeparator: ',' }), 1234.5);
    assert.equal(parseNumber('12,5'), 12.5);
    assert.equal(parseNumber('abc'), null);
    assert.equal(parseNumber('1,23,4'), null);
  });
  it('reads typeset minus signs, the Japanese negative triangle and full-width figures', () => {
    assert.equal(parseNumber('−3.5'), -3.5);
    assert.equal(parseNumber('–12'), -12);
    assert.equal(parseNumber('△1,200'), -1200);
    assert.equal(parseNumber('▲747'), -747);
    assert.equal(parseNumber('１２，３４５'), 12345);
    assert.equal(parseNumber('（１２）'), -12);
    assert.equal(parseNumber('△'), null);
    assert.equal(parseNumber('△-5'), null);
    assert.equal(parseNumber('(-5)'), null);
    assert.equal(matchesType('currency', '△¥1,200'), true);
  });
  it('judges each type', () => {
    const cases: [TemplateField['data_type'], string, boolean][] = [
      ['integer', '42', true], ['integer', '4.2', false], ['number', '-3.5e2', true], ['currency', '$1,200.00', true],
      ['currency', 'EUR 12,50', true], ['currency', 'US$ 1,200.00', true], ['currency', 'HK$12', true], ['percent', '12.5%', true], ['date', '2024-02-30', true], ['date', '13/13/2024', false],
      ['date', '3 Mar 2024', true], ['date', 'March 3, 2024', true], ['datetime', '2024-03-01T10:00:00Z', true],
      ['boolean', 'Yes', true], ['boolean', 'maybe', false], ['email', 'a@b.co', true], ['email', 'a@b', false],
      ['url', 'https://example.com/x', true], ['url', 'not a url', false], ['phone', '+1 (555) 123-4567', true], ['phone', '12', false],
    ];
    for (const [type, text, expected] of cases) assert.equal(matchesType(type, text), expected, `${type} ${text}`);
  });
  it('reads ambiguous dates by the date_format hint', () => {
    assert.equal(isDate('25/12/2024', { dateFormat: 'DD/MM/YYYY' }), true);
    assert.equal(isDate('25/12/2024', { dateFormat: 'MM/DD/YYYY' }), false);
  });
});

describe('TableValidator', () => {
  it('reports data_type, required and rule issues with severities and masks', () => {
    const v = new TableValidator([
      field('qty', { data_type: 'integer', required: true }),
      field('status', { validations: [{ type: 'enum', value: 'open, closed', severity: 'warn' }] }),
      field('code', { validations: [{ type: 'regex', value: '^[A-Z]{2}\\d+$', severity: 'info', message: 'Code looks unusual' }] }),
    ]);
    assert.deepEqual(v.validateRow(['3', 'Open', 'AB1']), { issues: null, mask: 0 });
    const bad = v.validateRow(['x', 'pending', 'zz']);
    assert.equal(bad.mask, 1 | 2 | 4);
    assert.deepEqual(bad.issues, {
      qty: [{ validate: 'data_type', severity: 'error', message: "QTY: 'x' is not a valid integer" }],
      status: [{ validate: 'enum', severity: 'warn', message: "STATUS: 'pending' is not one of open, closed" }],
      code: [{ validate: 'regex', severity: 'info', message: 'Code looks unusual' }],
    });
    assert.deepEqual(v.validateRow(['', 'open', 'AB1']).issues, { qty: [{ validate: 'required', severity: 'error', message: 'QTY is required' }] });
  });
  it('checks min, max, lengths and uniqueness within the table', () => {
    const v = new TableValidator([
      field('amount', { data_type: 'currency', validations: [{ type: 'min', value: '0', severity: 'error' }, { type: 'max', value: '100', severity: 'warn' }] }),
      field('id', { validations: [{ type: 'unique', severity: 'error' }, { type: 'min_length', value: '2', severity: 'error' }, { type: 'max_length', value: '3', severity: 'error' }] }),
    ]);
    assert.equal(v.validateRow(['50', 'ab']).mask, 0);
    assert.deepEqual(v.validateRow(['-1', 'ab']).issues?.amount?.[0]?.validate, 'min');
    assert.equal(v.validateRow(['-1', 'ab']).issues?.id?.[0]?.validate, 'unique');
    assert.equal(v.validateRow(['$150', 'abcd']).mask, 1 | 2);
    assert.equal(v.validateRow(['1', 'a']).issues?.id?.[0]?.validate, 'min_length');
  });
});
