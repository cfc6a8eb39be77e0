import type { ColumnType, JSONColumnType } from 'kysely';
import type { Timestamp } from '../shared/column-types.js';

/** Created by 0003 (messages), grown by 0007. */
export interface ContactsTable {
  id: string;
  company_id: string;
  phone: string;
  phone_key: string;
  name: string | null;
  email: ColumnType<string | null, string | null | undefined, string | null>;
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>;
  ia_ativa: ColumnType<boolean, boolean | undefined, boolean>;
  ia_paused_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactAffinitiesTable {
  contact_id: string;
  setor_id: string;
  company_id: string;
  source: string;
  created_at: Timestamp;
}

/** Created by 0003, grown by 0007. */
export interface TagsTable {
  id: string;
  company_id: string;
  name: string;
  description: ColumnType<string | null, string | null | undefined, string | null>;
  color: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactTagsTable {
  contact_id: string;
  tag_id: string;
  created_at: Timestamp;
}

export interface TagRulesTable {
  id: string;
  company_id: string;
  tag_id: string;
  match_type: string;
  match_value: string;
  case_sensitive: boolean;
  scope: string;
  setor_ids: string[];
  enabled: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactFieldDefinitionsTable {
  id: string;
  company_id: string;
  key: string;
  label: string;
  type: string;
  options: JSONColumnType<string[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactImportsTable {
  id: string;
  company_id: string;
  status: string;
  mode: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: JSONColumnType<{ row: number; field: string | null; code: string; message: string }[]>;
  batches: number;
  next_batch: number;
  error: JSONColumnType<{ code: string; message: string } | null, string | null, string | null>;
  lease_until: Timestamp | null;
  stalled_claims: number;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContactImportBatchesTable {
  import_id: string;
  batch: number;
  rows: JSONColumnType<unknown[]>;
}

/** Tables of the contacts area: those of 0003 it now owns, and those of 0007. */
export interface ContactsTables {
  contacts: ContactsTable;
  contact_affinities: ContactAffinitiesTable;
  tags: TagsTable;
  contact_tags: ContactTagsTable;
  tag_rules: TagRulesTable;
  contact_field_definitions: ContactFieldDefinitionsTable;
  contact_imports: ContactImportsTable;
  contact_import_batches: ContactImportBatchesTable;
}

declare module '../shared/database.js' {
  interface Database extends ContactsTables {}
}
