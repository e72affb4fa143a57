// Validates cells against template columns: data types and the template's validation rules.
import type { Severity, TemplateField, ValidationRule } from '../../lib/template.js';
import { matchesType, numericValue, type TypeOptions } from './data-types.js';

export interface ValidationIssue {
  validate: string;
  severity: Severity;
  message: string;
}

export const SEVERITY_BIT: Record<Severity, number> = { error: 1, warn: 2, info: 4 };

type Check = (value: string) => ValidationIssue | null;

function issue(rule: ValidationRule | { type: string; severity: Severity; message?: string | undefined }, fallback: string): ValidationIssue {
  return { validate: rule.type, severity: rule.severity, message: rule.message ?? fallback };
}

/** Compiles one column's checks once; `unique` keeps the values seen in this table. */
export function compileColumn(column: TemplateField, options: TypeOptions = {}): Check[] {
  const checks: Check[] = [];
  const label = column.name;
  const hasRequiredRule = column.validations.some((r) => r.type === 'required');
  if (column.required && !hasRequiredRule) {
    checks.push((v) => (v.trim() ? null : { validate: 'required', severity: 'error', message: `${label} is required` }));
  }
  if (column.data_type !== 'string') {
    const type = column.data_type;
    checks.push((v) =>
      matchesType(type, v, options) ? null : { validate: 'data_type', severity: 'error', message: `${label}: '${v}' is not a valid ${type}` },
    );
  }
  for (const rule of column.validations) checks.push(compileRule(rule, label, options));
  return checks;
}

function compileRule(rule: ValidationRule, label: string, options: TypeOptions): Check {
  const value = rule.value ?? '';
  switch (rule.type) {
    case 'required':
      return (v) => (v.trim() ? null : issue(rule, `${label} is required`));
    case 'regex': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(value);
      } catch {
        pattern = /$^/;
      }
      return (v) => (!v || pattern.test(v) ? null : issue(rule, `${label}: '${v}' does not match the pattern ${value}`));
    }
    case 'enum': {
      const allowed = value.split(',').map((s) => s.trim()).filter(Boolean);
      const lowered = new Set(allowed.map((s) => s.toLowerCase()));
      return (v) => (!v.trim() || lowered.has(v.trim().toLowerCase()) ? null : issue(rule, `${label}: '${v}' is not one of ${allowed.join(', ')}`));
    }
    case 'min':
    case 'max': {
      const bound = Number(value);
      return (v) => {
        if (!v.trim() || !Number.isFinite(bound)) return null;
        const n = numericValue(v, options);
        if (n === null) return null; // the data_type check reports non-numbers
        const ok = rule.type === 'min' ? n >= bound : n <= bound;
        return ok ? null : issue(rule, `${label}: ${v} is ${rule.type === 'min' ? 'less than the minimum' : 'more than the maximum'} ${value}`);
      };
    }
    case 'min_length':
    case 'max_length': {
      const bound = Number(value);
      return (v) => {
        if (!v || !Number.isFinite(bound)) return null;
        const length = [...v].length;
        const ok = rule.type === 'min_length' ? length >= bound : length <= bound;
        return ok ? null : issue(rule, `${label}: '${v}' is ${rule.type === 'min_length' ? 'shorter than' : 'longer than'} ${value} characters`);
      };
    }
    case 'unique': {
      const seen = new Set<string>();
      return (v) => {
        const key = v.trim();
        if (!key) return null;
        if (seen.has(key)) return issue(rule, `${label}: '${v}' appears more than once`);
        seen.add(key);
        return null;
      };
    }
  }
}

export interface RowValidation {
  /** column key -> issues; only columns with issues */
  issues: Record<string, ValidationIssue[]> | null;
  /** bit 1 error, 2 warn, 4 info */
  mask: number;
}

/** Validates rows of one table; keeps state for `unique` across calls. */
export class TableValidator {
  private readonly checks: Check[][];
  constructor(private readonly columns: TemplateField[], options: TypeOptions = {}) {
    this.checks = columns.map((c) => compileColumn(c, options));
  }

  validateRow(values: string[]): RowValidation {
    let issues: Record<string, ValidationIssue[]> | null = null;
    let mask = 0;
    for (let i = 0; i < this.checks.length; i++) {
      const checks = this.checks[i]!;
      if (checks.length === 0) continue;
      const value = values[i] ?? '';
      for (const check of checks) {
        const found = check(value);
        if (!found) continue;
        issues ??= {};
        (issues[this.columns[i]!.key] ??= []).push(found);
        mask |= SEVERITY_BIT[found.severity];
      }
    }
    return { issues, mask };
  }
}
