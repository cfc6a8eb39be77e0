import { sql, type Kysely } from 'kysely';

/**
 * The CRM (business.md §3): funnel stages, the product catalogue, opportunities and their
 * history. Forward-only: a released migration is never edited, a new one is added.
 *
 * Every company has a funnel: a trigger seeds the default one when a company row is inserted,
 * and this migration seeds the companies that already exist. Stage positions are unique per
 * company through a DEFERRABLE constraint, checked at the end of each statement, so that one
 * upsert can swap positions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE crm_stages (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      position integer NOT NULL CHECK (position > 0),
      is_won boolean NOT NULL,
      is_lost boolean NOT NULL,
      win_probability integer NOT NULL CHECK (win_probability BETWEEN 0 AND 100),
      color text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT crm_stages_position_unique UNIQUE (company_id, position) DEFERRABLE INITIALLY IMMEDIATE,
      CHECK (NOT (is_won AND is_lost))
    );

    CREATE FUNCTION crm_seed_funnel(company uuid, at timestamptz) RETURNS void LANGUAGE sql AS $$
      INSERT INTO crm_stages (id, company_id, name, position, is_won, is_lost, win_probability, color, created_at, updated_at)
      SELECT gen_random_uuid(), company, s.name, s.position, s.is_won, s.is_lost, s.win_probability, s.color, at, at
      FROM (VALUES
        ('Novo', 1, false, false, 10, '#94a3b8'),
        ('Qualificado', 2, false, false, 30, '#60a5fa'),
        ('Proposta', 3, false, false, 60, '#a78bfa'),
        ('Negociação', 4, false, false, 80, '#f59e0b'),
        ('Ganho', 5, true, false, 100, '#22c55e'),
        ('Perdido', 6, false, true, 0, '#ef4444')
      ) AS s(name, position, is_won, is_lost, win_probability, color)
      WHERE NOT EXISTS (SELECT 1 FROM crm_stages WHERE company_id = company)
    $$;

    CREATE FUNCTION crm_seed_funnel_of_new_company() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM crm_seed_funnel(NEW.id, NEW.created_at);
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER companies_crm_funnel AFTER INSERT ON companies FOR EACH ROW EXECUTE FUNCTION crm_seed_funnel_of_new_company();

    SELECT crm_seed_funnel(id, now()) FROM companies;

    CREATE TABLE crm_products (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      name text NOT NULL,
      price_cents bigint NOT NULL CHECK (price_cents >= 0),
      sku text,
      unit text,
      description text,
      active boolean NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX crm_products_name_unique ON crm_products (company_id, lower(name));
    CREATE UNIQUE INDEX crm_products_sku_unique ON crm_products (company_id, lower(sku)) WHERE sku IS NOT NULL;

    CREATE TABLE crm_opportunities (
      id uuid PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      title text NOT NULL,
      value_cents bigint,
      products_total_cents bigint NOT NULL,
      effective_value_cents bigint GENERATED ALWAYS AS (COALESCE(value_cents, products_total_cents)) STORED,
      status text NOT NULL CHECK (status IN ('open', 'won', 'lost')),
      stage_id uuid NOT NULL REFERENCES crm_stages(id),
      client_id uuid NOT NULL REFERENCES contacts(id),
      assignee_id uuid,
      -- A ticket of the tickets area (not built yet): no foreign key until it exists.
      ticket_id uuid,
      description text,
      expected_close_date date,
      lost_reason text,
      closed_at timestamptz,
      products jsonb NOT NULL,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    -- List (newest first) and count/sum by status: index-only for the common filters.
    CREATE INDEX crm_opportunities_list_idx ON crm_opportunities (company_id, status, created_at DESC, id DESC)
      INCLUDE (effective_value_cents) WHERE deleted_at IS NULL;
    CREATE INDEX crm_opportunities_created_idx ON crm_opportunities (company_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
    CREATE INDEX crm_opportunities_stage_idx ON crm_opportunities (stage_id);
    CREATE INDEX crm_opportunities_client_idx ON crm_opportunities (company_id, client_id);

    -- Title search (q) by trigram.
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX crm_opportunities_title_trgm_idx ON crm_opportunities USING gin (title gin_trgm_ops) WHERE deleted_at IS NULL;

    -- Counts and value totals per stage, status and assignee, kept by statement triggers: the count and the list's
    -- total answer from a few rows instead of scanning every opportunity (filters by client or title still scan).
    -- An unassigned opportunity counts under the nil uuid.
    CREATE TABLE crm_opportunity_totals (
      company_id uuid NOT NULL,
      stage_id uuid NOT NULL,
      status text NOT NULL,
      assignee_key uuid NOT NULL,
      opportunities bigint NOT NULL,
      value_cents bigint NOT NULL,
      PRIMARY KEY (company_id, stage_id, status, assignee_key)
    );

    CREATE FUNCTION crm_opportunity_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO crm_opportunity_totals (company_id, stage_id, status, assignee_key, opportunities, value_cents)
      SELECT company_id, stage_id, status, assignee_key, sum(n), sum(v)
      FROM (
        SELECT company_id, stage_id, status, COALESCE(assignee_id, '00000000-0000-0000-0000-000000000000'::uuid) AS assignee_key, 1 AS n, effective_value_cents AS v
        FROM new_rows WHERE deleted_at IS NULL AND TG_OP IN ('INSERT', 'UPDATE')
      ) AS changes
      GROUP BY company_id, stage_id, status, assignee_key
      ON CONFLICT (company_id, stage_id, status, assignee_key) DO UPDATE
        SET opportunities = crm_opportunity_totals.opportunities + EXCLUDED.opportunities,
            value_cents = crm_opportunity_totals.value_cents + EXCLUDED.value_cents;
      RETURN NULL;
    END
    $$;

    CREATE FUNCTION crm_opportunity_totals_remove() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO crm_opportunity_totals (company_id, stage_id, status, assignee_key, opportunities, value_cents)
      SELECT company_id, stage_id, status, assignee_key, -sum(n), -sum(v)
      FROM (
        SELECT company_id, stage_id, status, COALESCE(assignee_id, '00000000-0000-0000-0000-000000000000'::uuid) AS assignee_key, 1 AS n, effective_value_cents AS v
        FROM old_rows WHERE deleted_at IS NULL
      ) AS changes
      GROUP BY company_id, stage_id, status, assignee_key
      ON CONFLICT (company_id, stage_id, status, assignee_key) DO UPDATE
        SET opportunities = crm_opportunity_totals.opportunities + EXCLUDED.opportunities,
            value_cents = crm_opportunity_totals.value_cents + EXCLUDED.value_cents;
      RETURN NULL;
    END
    $$;

    CREATE TRIGGER crm_opportunity_totals_insert AFTER INSERT ON crm_opportunities
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_opportunity_totals_apply();
    -- An update removes the old rows' share, then adds the new rows' (two triggers, in name order).
    CREATE TRIGGER crm_opportunity_totals_update_a AFTER UPDATE ON crm_opportunities
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_opportunity_totals_remove();
    CREATE TRIGGER crm_opportunity_totals_update_b AFTER UPDATE ON crm_opportunities
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_opportunity_totals_apply();
    CREATE TRIGGER crm_opportunity_totals_delete AFTER DELETE ON crm_opportunities
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_opportunity_totals_remove();

    CREATE TABLE crm_opportunity_history (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      company_id uuid NOT NULL,
      opportunity_id uuid NOT NULL REFERENCES crm_opportunities(id) ON DELETE CASCADE,
      at timestamptz NOT NULL,
      actor jsonb NOT NULL,
      kind text NOT NULL,
      changes jsonb NOT NULL
    );
    CREATE INDEX crm_opportunity_history_idx ON crm_opportunity_history (opportunity_id, at DESC, seq DESC);
  `.execute(db);
}
