import { parse } from 'csv-parse/sync';
import { ValidationError, type ImportRowInput } from '@carteiro/core';

const KNOWN = new Set(['phone', 'name', 'email', 'tag_ids']);

/**
 * Rows of a CSV import (header required): `phone`, `name`, `email`, `tag_ids` (ids separated by
 * `;` or `|`) and any other column as a custom field keyed by its header (`custom_fields.<key>`
 * or `<key>`). Empty cells are absent values. Parsed by csv-parse, never by hand.
 */
export function rowsFromCsv(csv: string): ImportRowInput[] {
  let records: Record<string, string>[];
  try {
    records = parse(csv, { columns: (header: string[]) => header.map((h) => h.trim()), skip_empty_lines: true, bom: true, trim: true, relax_column_count: false });
  } catch (error) {
    throw new ValidationError(`csv could not be parsed: ${(error as Error).message}`, { field: 'csv' });
  }
  if (records.length === 0) throw new ValidationError('csv has no rows', { field: 'csv' });
  if (!Object.keys(records[0]!).includes('phone')) throw new ValidationError('csv needs a phone column', { field: 'csv' });
  return records.map((record) => {
    const row: ImportRowInput & { custom_fields: Record<string, unknown> } = { custom_fields: {} };
    for (const [column, value] of Object.entries(record)) {
      if (value === '') continue;
      if (column === 'tag_ids') row.tag_ids = value.split(/[;|]/).map((t) => t.trim()).filter(Boolean);
      else if (KNOWN.has(column)) (row as unknown as Record<string, unknown>)[column] = value;
      else row.custom_fields[column.replace(/^custom_fields\./, '')] = value;
    }
    return row;
  });
}
