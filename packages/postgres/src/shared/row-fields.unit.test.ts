import { describe, expect, it } from '@jest/globals';
import { columnsOf, fieldsOf } from './row-fields.js';

describe('row fields', () => {
  it('renames the named columns of a row to camelCase, values as they are', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const row = { id: 'a', company_id: 'c', max_advance_days: 30, created_at: at, left_out: 1 };
    expect(fieldsOf(row, ['id', 'company_id', 'max_advance_days', 'created_at'])).toEqual({ id: 'a', companyId: 'c', maxAdvanceDays: 30, createdAt: at });
  });

  it('renames the named fields of a record to snake_case columns, the reverse', () => {
    const entity = { id: 'a', companyId: 'c', reminderText: null, leftOut: true };
    expect(columnsOf(entity, ['id', 'companyId', 'reminderText'])).toEqual({ id: 'a', company_id: 'c', reminder_text: null });
  });
});
