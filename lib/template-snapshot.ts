import type { TemplateField, TemplateSnapshot, TemplateTable } from './template.js';

export interface TemplateRecord {
  id: string;
  name: string;
  fileTypes: string[];
  fields: unknown;
  tables: unknown;
}

export function snapshotOf(template: TemplateRecord): TemplateSnapshot {
  return {
    id: template.id,
    name: template.name,
    file_types: template.fileTypes,
    fields: template.fields as TemplateField[],
    tables: template.tables as TemplateTable[],
  };
}
