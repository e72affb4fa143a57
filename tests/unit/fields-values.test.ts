// Labelled values read from a generated PDF: right of the label, below it, typed preference.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findFieldValues } from '../../activities/documents/fields.js';
import { generatedPdfs } from '../fixtures/layout/read-generated.js';

const read = generatedPdfs('fields-test-');

test('field values next to, below and by type of their labels, over all pages', async () => {
  const doc = await read('invoice', [
    (p) => {
      p.text('ACME Supplies Ltd', 72, 50, { size: 16, bold: true });
      p.text('Invoice number: INV-2024-017', 72, 100);
      p.text('Customer', 350, 100, { bold: true });
      p.text('Globex Corporation', 350, 114);
      p.text('Date', 72, 130);
      p.text('see terms', 160, 130);
      p.text('12/03/2024', 72, 144);
      p.text('PO reference', 72, 180);
      p.text('PO-77', 250, 180);
    },
    (p) => {
      p.text('Total due', 72, 100);
      p.text('EUR 1,250.00', 300, 100);
      p.text('Contact: billing@acme.example', 72, 130);
    },
  ]);
  const values = findFieldValues(doc.lines, [
    { key: 'invoice_number', name: 'Invoice number', data_type: 'string' },
    { key: 'customer', name: 'Customer', data_type: 'string' },
    { key: 'invoice_date', name: 'Date', data_type: 'date' },
    { key: 'po', name: 'Purchase order', data_type: 'string', description: 'PO reference' },
    { key: 'total', name: 'Total due', data_type: 'currency' },
    { key: 'email', name: 'Contact', data_type: 'email' },
    { key: 'vat', name: 'VAT number', data_type: 'string' },
  ]);
  assert.deepEqual(values, {
    invoice_number: 'INV-2024-017',
    customer: 'Globex Corporation',
    invoice_date: '12/03/2024',
    po: 'PO-77',
    total: '1,250.00',
    email: 'billing@acme.example',
    vat: '',
  });
});

test('label and value on one line separated by wide space; untyped takes the text on the right', () => {
  const word = (text: string, x0: number, y0: number) => ({ text, x0, y0, x1: x0 + text.length * 5, y1: y0 + 10 });
  const lines = [
    { page: 1, text: 'Account holder Jane Doe', words: [word('Account', 72, 100), word('holder', 112, 100), word('Jane', 300, 100), word('Doe', 325, 100)] },
    { page: 1, text: 'Due date 2024-05-01', words: [word('Due', 72, 120), word('date', 92, 120), word('2024-05-01', 300, 120)] },
  ];
  assert.deepEqual(findFieldValues(lines, [
    { key: 'account_holder', name: 'Account holder', data_type: 'string' },
    { key: 'due_date', name: 'Due date', data_type: 'date' },
  ]), { account_holder: 'Jane Doe', due_date: '2024-05-01' });
});

test('an invoice: the next label of a form is no value, a rate is no amount, "Total due" wins over a "Total" column', async () => {
  const doc = await read('invoice-form', [
    (p) => {
      p.text('Bill to', 72, 90, { bold: true });
      p.text('Invoice number:', 350, 90);
      p.text('INV-2024-0042', 450, 90);
      p.text('Acme Ltd', 72, 104);
      p.text('Invoice date:', 350, 104);
      p.text('2024-03-12', 450, 104);
      ['Description', 'Qty', 'Price', 'Total'].forEach((t, i) => p.text(t, [72, 300, 380, 470][i]!, 170, { bold: true }));
      ['Widget', '2', '10.00', '20.00'].forEach((t, i) => p.text(t, [72, 300, 380, 470][i]!, 186));
      p.text('VAT 20%', 380, 230);
      p.text('4.00', 470, 230);
      p.text('Total due', 380, 244, { bold: true });
      p.text('24.00', 470, 244, { bold: true });
    },
  ]);
  assert.deepEqual(findFieldValues(doc.lines, [
    { key: 'bill_to', name: 'Bill to', data_type: 'string' },
    { key: 'invoice_date', name: 'Invoice date', data_type: 'date' },
    { key: 'vat', name: 'VAT', data_type: 'currency' },
    { key: 'total', name: 'Total due', data_type: 'currency' },
  ]), { bill_to: 'Acme Ltd', invoice_date: '2024-03-12', vat: '4.00', total: '24.00' });
});

test('dot leaders from a label to its value are no part of the value', async () => {
  const doc = await read('leaders-form', [
    (p) => {
      p.text('Policy number . . . . . . . . . . . . . PN-55120', 72, 100);
      p.text('Holder', 72, 116);
      p.text('. . . . . . . . . . . . . . . . .', 150, 116);
      p.text('Maria Lopez', 262, 116);
      p.text('Premium ……………… 1,480.00', 72, 132);
    },
  ]);
  assert.deepEqual(findFieldValues(doc.lines, [
    { key: 'policy', name: 'Policy number', data_type: 'string' },
    { key: 'holder', name: 'Holder', data_type: 'string' },
    { key: 'premium', name: 'Premium', data_type: 'string' },
  ]), { policy: 'PN-55120', holder: 'Maria Lopez', premium: '1,480.00' });
});

test('an invoice head: an abbreviated label, a VAT id beside the VAT amount, codes and dates no amounts', () => {
  const word = (text: string, x0: number, y0: number) => ({ text, x0, y0, x1: x0 + text.length * 5, y1: y0 + 10 });
  const lines = [
    { page: 1, text: 'VAT ID DE123456789 Invoice no. NW-2024-0193', words: [word('VAT', 72, 80), word('ID', 95, 80), word('DE123456789', 110, 80), word('Invoice', 380, 80), word('no.', 420, 80), word('NW-2024-0193', 480, 80)] },
    { page: 1, text: 'Due date 2024-04-13', words: [word('Due', 380, 94), word('date', 400, 94), word('2024-04-13', 480, 94)] },
    { page: 1, text: 'VAT 19% 75.05', words: [word('VAT', 380, 300), word('19%', 400, 300), word('75.05', 510, 300)] },
  ];
  assert.deepEqual(findFieldValues(lines, [
    { key: 'invoice_number', name: 'Invoice number', data_type: 'string' },
    { key: 'vat_id', name: 'VAT ID', data_type: 'string' },
    { key: 'vat', name: 'VAT', data_type: 'currency' },
    { key: 'due_date', name: 'Due date', data_type: 'date' },
  ]), { invoice_number: 'NW-2024-0193', vat_id: 'DE123456789', vat: '75.05', due_date: '2024-04-13' });
});

test('a form’s row of boxes, each label over its value: the next box’s label is no value of the first', async () => {
  const doc = await read('boxes', [
    (p) => {
      p.text('INVOICE', 72, 50, { size: 18, bold: true });
      p.grid([72, 192, 312, 432, 552], [90, 126], [[['Invoice number', 'INV-2024-0042'], ['Invoice date', '14/03/2024'], ['Due date', '13/04/2024'], ['Reference', 'PO 7781']]]);
      p.grid([350, 450, 540], [400, 420, 440], [['Subtotal', '1,250.00'], ['Total due', 'GBP 1,500.00']]);
    },
  ]);
  assert.deepEqual(findFieldValues(doc.lines, [
    { key: 'invoice_number', name: 'Invoice number', data_type: 'string' },
    { key: 'invoice_date', name: 'Invoice date', data_type: 'date' },
    { key: 'due_date', name: 'Due date', data_type: 'string' },
    { key: 'reference', name: 'Reference', data_type: 'string' },
    { key: 'total', name: 'Total due', data_type: 'currency' },
  ]), { invoice_number: 'INV-2024-0042', invoice_date: '14/03/2024', due_date: '13/04/2024', reference: 'PO 7781', total: '1,500.00' });
});
