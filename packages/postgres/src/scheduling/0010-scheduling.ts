import { sql, type Kysely } from 'kysely';

/**
 * Scheduling: units, professionals (schedule, services), appointment types, appointments, the
 * busy-time table and timed sends (scheduled messages and reminders). Forward-only.
 *
 * `scheduling_busy` holds every reservation of a professional's time — a live appointment with
 * its buffers, or a block — and its exclusion constraint makes two overlapping reservations of
 * one professional impossible whatever the concurrency (SQLSTATE 23P01). `btree_gist` gives the
 * uuid equality its GiST operator class (a trusted extension since PostgreSQL 13).
 *
 * `scheduled_messages` holds both kinds of timed sends; a lane claims due rows of its box with
 * `FOR UPDATE SKIP LOCKED` through the partial index on scheduled rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE EXTENSION IF NOT EXISTS btree_gist;

    CREATE TABLE scheduling_units (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      address jsonb NOT NULL,
      timezone text NOT NULL,
      open_on_holidays boolean NOT NULL,
      active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX scheduling_units_company_idx ON scheduling_units (company_id, name, id);

    CREATE TABLE scheduling_professionals (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      phone text,
      active boolean NOT NULL,
      schedule jsonb NOT NULL,
      services jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX scheduling_professionals_company_idx ON scheduling_professionals (company_id, name, id);

    CREATE TABLE appointment_types (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 5 AND 720),
      buffer_before_minutes integer NOT NULL,
      buffer_after_minutes integer NOT NULL,
      slot_interval_minutes integer NOT NULL CHECK (slot_interval_minutes > 0),
      min_notice_minutes integer NOT NULL,
      max_advance_days integer NOT NULL,
      price numeric(14, 2),
      unit_ids uuid[] NOT NULL,
      reminder_offsets_minutes integer[],
      reminder_text text,
      reminder_template jsonb,
      active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX appointment_types_company_idx ON appointment_types (company_id, name, id);

    CREATE TABLE scheduling_reminder_settings (
      company_id uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
      reminder_offsets_minutes integer[],
      reminder_text text
    );

    CREATE TABLE appointments (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      appointment_type_id uuid NOT NULL REFERENCES appointment_types(id),
      professional_id uuid NOT NULL REFERENCES scheduling_professionals(id),
      unit_id uuid NOT NULL REFERENCES scheduling_units(id),
      client_id uuid NOT NULL,
      client_name text,
      client_phone text NOT NULL,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      timezone text NOT NULL,
      status text NOT NULL CHECK (status IN ('scheduled', 'confirmed', 'cancelled', 'attended', 'no_show')),
      description text,
      ticket_id uuid,
      setor_id uuid,
      key_mode text NOT NULL,
      confirmed_at timestamptz,
      cancelled_at timestamptz,
      cancel_reason text,
      cancelled_by text,
      history jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX appointments_company_start_idx ON appointments (company_id, starts_at, id);
    CREATE INDEX appointments_client_idx ON appointments (company_id, client_id, starts_at);

    CREATE TABLE professional_blocks (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      professional_id uuid NOT NULL REFERENCES scheduling_professionals(id) ON DELETE CASCADE,
      starts_at timestamptz NOT NULL,
      ends_at timestamptz NOT NULL,
      reason text,
      created_at timestamptz NOT NULL
    );

    CREATE TABLE scheduling_busy (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL,
      professional_id uuid NOT NULL REFERENCES scheduling_professionals(id) ON DELETE CASCADE,
      appointment_id uuid UNIQUE REFERENCES appointments(id) ON DELETE CASCADE,
      block_id uuid UNIQUE REFERENCES professional_blocks(id) ON DELETE CASCADE,
      busy tstzrange NOT NULL,
      CHECK (NOT isempty(busy)),
      CONSTRAINT scheduling_busy_no_overlap EXCLUDE USING gist (professional_id WITH =, busy WITH &&)
    );

    CREATE TABLE scheduled_messages (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('message', 'reminder')),
      appointment_id uuid REFERENCES appointments(id) ON DELETE CASCADE,
      offset_minutes integer,
      client_id uuid NOT NULL,
      client_name text,
      phone text NOT NULL,
      setor_id uuid NOT NULL,
      key_mode text NOT NULL,
      content jsonb NOT NULL,
      send_at timestamptz NOT NULL,
      effective_send_at timestamptz NOT NULL,
      respect_safe_hours boolean NOT NULL,
      waiting_reason text,
      status text NOT NULL CHECK (status IN ('scheduled', 'sending', 'sent', 'failed', 'cancelled', 'skipped')),
      attempts integer NOT NULL,
      claimed_by text,
      claimed_at timestamptz,
      sent_at timestamptz,
      message_id text,
      error_code text,
      error text,
      skip_reason text,
      cancelled_at timestamptz,
      charge jsonb,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX scheduled_messages_due_idx ON scheduled_messages (setor_id, effective_send_at) WHERE status = 'scheduled';
    CREATE INDEX scheduled_messages_sending_idx ON scheduled_messages (setor_id, claimed_at) WHERE status = 'sending';
    CREATE INDEX scheduled_messages_company_idx ON scheduled_messages (company_id, kind, send_at, id);
    CREATE INDEX scheduled_messages_appointment_idx ON scheduled_messages (appointment_id) WHERE appointment_id IS NOT NULL;
    CREATE INDEX scheduled_messages_reply_idx ON scheduled_messages (company_id, phone, sent_at) WHERE kind = 'reminder' AND status = 'sent';
  `.execute(db);
}
