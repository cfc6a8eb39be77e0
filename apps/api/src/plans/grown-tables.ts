import pg from 'pg';
import { performance } from 'node:perf_hooks';

/**
 * How many rows of other companies each table that grows with traffic gets, at scale 1 (the env var
 * `PLAN_AUDIT_SCALE` multiplies them: 0.1 for a quick look, 5 to see the plans of a larger install).
 */
export const GROWN_TABLE_ROWS = {
  contacts: 60_000,
  conversations: 60_000,
  messages: 150_000,
  tickets: 60_000,
  ticketTags: 30_000,
  contactTags: 30_000,
  campaignMessages: 100_000,
  domainEvents: 100_000,
  appointments: 50_000,
  scheduledMessages: 50_000,
  opportunities: 30_000,
  opportunityHistory: 50_000,
  contracts: 30_000,
  webhookDeliveries: 60_000,
} as const;

/** Other companies the history belongs to (so that a company's share of a table is small, as in life). */
const COMPANIES = 500;

/**
 * Fills the tables that grow with traffic with rows of `COMPANIES` other companies (by `INSERT … SELECT
 * generate_series`; referential triggers are off for the load, so the companies, setores and catalogue rows those ids
 * name need not exist), then ANALYZEs them so that the planner sees their size. Messages, events and deliveries are
 * recent (the partitioned tables' rows fall in the current partition); what reports and limits select by period
 * (ratings, closed opportunities, sent contracts, appointments) spreads over a year, so that a period holds a small
 * share of it. Contact `n` has conversation `n` and ticket `n`. One of the
 * companies, `busyCompanyId`, holds half of every table: a statement planned with its id shows what a company with
 * a long history costs.
 */
export async function fillGrownTables(url: string, scale: number): Promise<{ rows: Record<keyof typeof GROWN_TABLE_ROWS, number>; busyCompanyId: string }> {
  const n = Object.fromEntries(Object.entries(GROWN_TABLE_ROWS).map(([k, v]) => [k, Math.max(COMPANIES, Math.round(v * scale))])) as Record<
    keyof typeof GROWN_TABLE_ROWS,
    number
  >;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET session_replication_role = replica');
    // Ids derived from numbers: `co(k)` a company, `ct(k)` a contact (of company k % COMPANIES), and so on.
    // Company 0 is busy: half of every table is its.
    const co = (k: string) => `md5('plans-co' || CASE WHEN (${k}) % 2 = 0 THEN 0 ELSE (${k}) % ${COMPANIES} END)::uuid`;
    const id = (prefix: string, k: string) => `md5('${prefix}' || (${k}))::uuid`;
    const contacts = n.contacts;
    const statements = [
      `INSERT INTO contacts (id, company_id, phone, phone_key, name, email, created_at, updated_at)
       SELECT ${id('ct', 'g')}, ${co('g')}, '+55' || (11900000000 + g), '+55' || (11900000000 + g), 'Contato ' || g, 'c' || g || '@example.com',
         now() - g * interval '1 minute', now() - g * interval '1 minute'
       FROM generate_series(1, ${contacts}) g`,
      `INSERT INTO conversations (id, company_id, setor_id, contact_id, last_inbound_at, last_outbound_at, created_at, updated_at)
       SELECT ${id('cv', 'g')}, ${co('g')}, ${id('st', `g % ${COMPANIES}`)}, ${id('ct', 'g')}, now() - g * interval '1 minute', now() - g * interval '1 minute',
         now() - g * interval '1 minute', now() - g * interval '1 minute'
       FROM generate_series(1, ${n.conversations}) g`,
      `INSERT INTO tickets (id, company_id, number, status, priority_rank, setor_id, contact_id, conversation_id, last_activity_at, source, rating_status,
         version, created_at, updated_at, closed_at, waiting_since, rating_requested_at, rated_at, rating_score)
       SELECT ${id('tk', 'g')}, ${co('g')}, g, CASE WHEN g % 10 = 0 THEN 'open' ELSE 'closed' END, 0, ${id('st', `g % ${COMPANIES}`)}, ${id('ct', `1 + (g - 1) % ${contacts}`)},
         ${id('cv', `1 + (g - 1) % ${contacts}`)}, now() - g * interval '1 minute', 'inbound',
         CASE g % 10 WHEN 1 THEN 'rated' WHEN 2 THEN 'requested' ELSE 'none' END, 1, now() - g * interval '1 minute', now() - g * interval '1 minute',
         CASE WHEN g % 10 = 0 THEN NULL ELSE now() END, now() - g * interval '1 minute',
         CASE WHEN g % 10 IN (1, 2) THEN now() - g * interval '10 minutes' END, CASE WHEN g % 10 = 1 THEN now() - g * interval '10 minutes' END,
         CASE WHEN g % 10 = 1 THEN 1 + g % 5 END
       FROM generate_series(1, ${n.tickets}) g`,
      `INSERT INTO messages (id, company_id, conversation_id, setor_id, contact_id, phone, key_mode, content, parts, status, direction, ticket_id,
         provider_message_id, sent_at, created_at, updated_at)
       SELECT ${id('ms', 'g')}, ${co('g')}, ${id('cv', `1 + (g - 1) % ${contacts}`)}, ${id('st', `g % ${COMPANIES}`)}, ${id('ct', `1 + (g - 1) % ${contacts}`)},
         '+55' || (11900000000 + 1 + (g - 1) % ${contacts}), 'live', '{"kind":"text","text":"Oi"}', '[]',
         CASE WHEN g % 2 = 0 THEN 'received' ELSE 'sent' END, CASE WHEN g % 2 = 0 THEN 'inbound' ELSE 'outbound' END,
         ${id('tk', `1 + (g - 1) % ${n.tickets}`)}, 'wamid.' || g, now() - g * interval '1 second', now() - g * interval '1 second', now() - g * interval '1 second'
       FROM generate_series(1, ${n.messages}) g`,
      `INSERT INTO ticket_tags (ticket_id, tag_id, company_id, created_at)
       SELECT ${id('tk', `1 + (g - 1) % ${n.tickets}`)}, ${id('tg', `g % ${COMPANIES * 3}`)}, ${co('g')}, now() FROM generate_series(1, ${n.ticketTags}) g
       ON CONFLICT DO NOTHING`,
      `INSERT INTO contact_tags (contact_id, tag_id, created_at)
       SELECT ${id('ct', `1 + (g - 1) % ${contacts}`)}, ${id('tg', `g % ${COMPANIES * 3}`)}, now() FROM generate_series(1, ${n.contactTags}) g
       ON CONFLICT DO NOTHING`,
      `INSERT INTO campaigns (id, company_id, mode, name, status, content, anti_ban_level, distribution, distribution_mode, setor_ids, execution_mode,
         total, enviados, created_at, updated_at, started_at, finished_at)
       SELECT ${id('cp', 'g')}, ${co('g')}, 'live', 'Campanha ' || g, 'concluido', '{"text":"Oi"}', 'medio', 'round_robin', 'automatic',
         ARRAY[${id('st', `g % ${COMPANIES}`)}], 'immediate', ${Math.ceil(n.campaignMessages / COMPANIES)}, ${Math.ceil(n.campaignMessages / COMPANIES)},
         now() - g * interval '1 hour', now() - g * interval '1 hour', now() - g * interval '1 hour', now() - g * interval '1 hour'
       FROM generate_series(1, ${COMPANIES}) g`,
      `INSERT INTO campaign_messages (id, campaign_id, company_id, seq, contact_id, phone, status, assigned_setor_id, setor_id, attempts, sent_at,
         provider_message_id, created_at, updated_at)
       SELECT ${id('cm', 'g')}, ${id('cp', `g % ${COMPANIES}`)}, ${co('g')}, g, ${id('ct', `1 + (g - 1) % ${contacts}`)}, '+55' || (11900000000 + 1 + (g - 1) % ${contacts}),
         'enviado', ${id('st', `g % ${COMPANIES}`)}, ${id('st', `g % ${COMPANIES}`)}, 1, now() - g * interval '1 second', 'wamid.c' || g, now() - g * interval '1 second', now()
       FROM generate_series(1, ${n.campaignMessages}) g`,
      `INSERT INTO domain_events (id, event, company_id, setor_id, occurred_at, data, actor)
       SELECT ${id('ev', 'g')}, (ARRAY['message.sent', 'message.received', 'ticket.created', 'conversation.opened'])[1 + g % 4], ${co('g')}, ${id('st', `g % ${COMPANIES}`)},
         date_trunc('milliseconds', now() - g * interval '100 milliseconds'), '{}', '{"user_id":null,"source":"system"}'
       FROM generate_series(1, ${n.domainEvents}) g`,
      `INSERT INTO appointments (id, company_id, appointment_type_id, professional_id, unit_id, client_id, client_name, client_phone, starts_at, ends_at, timezone,
         status, key_mode, history, created_at, updated_at)
       SELECT ${id('ap', 'g')}, ${co('g')}, ${id('at', `g % ${COMPANIES}`)}, ${id('pr', `g % ${COMPANIES}`)}, ${id('un', `g % ${COMPANIES}`)}, ${id('ct', `1 + (g - 1) % ${contacts}`)},
         'Cliente', '+55' || (11900000000 + 1 + (g - 1) % ${contacts}), date_trunc('minute', now()) + (g % 8000 - 4000) * interval '1 hour',
         date_trunc('minute', now()) + (g % 8000 - 4000) * interval '1 hour' + interval '30 minutes', 'America/Sao_Paulo', 'scheduled', 'live', '[]', now(), now()
       FROM generate_series(1, ${n.appointments}) g`,
      `INSERT INTO scheduled_messages (id, company_id, kind, client_id, client_name, phone, setor_id, key_mode, content, send_at, effective_send_at,
         respect_safe_hours, status, attempts, sent_at, created_at, updated_at)
       SELECT ${id('sm', 'g')}, ${co('g')}, 'message', ${id('ct', `1 + (g - 1) % ${contacts}`)}, 'Cliente', '+55' || (11900000000 + 1 + (g - 1) % ${contacts}),
         ${id('st', `g % ${COMPANIES}`)}, 'live', '{"text":"Oi"}', now() + (g % 10 - 8) * interval '1 day', now() + (g % 10 - 8) * interval '1 day', false,
         CASE WHEN g % 10 = 9 THEN 'scheduled' ELSE 'sent' END, 1, CASE WHEN g % 10 = 9 THEN NULL ELSE now() END, now(), now()
       FROM generate_series(1, ${n.scheduledMessages}) g`,
      `INSERT INTO crm_opportunities (id, company_id, title, value_cents, products_total_cents, status, stage_id, client_id, products,
         created_at, updated_at, closed_at)
       SELECT ${id('op', 'g')}, ${co('g')}, 'Oportunidade ' || g, 1000, 0, (ARRAY['open', 'won', 'lost'])[1 + g % 3], ${id('sg', `g % ${COMPANIES}`)},
         ${id('ct', `1 + (g - 1) % ${contacts}`)}, '[]', now() - g * interval '1 minute', now() - g * interval '1 minute',
         CASE WHEN g % 3 = 0 THEN NULL ELSE now() - g * interval '15 minutes' END
       FROM generate_series(1, ${n.opportunities}) g`,
      `INSERT INTO crm_opportunity_history (id, company_id, opportunity_id, at, actor, kind, changes)
       SELECT ${id('oh', 'g')}, ${co('g')}, ${id('op', `1 + (g - 1) % ${n.opportunities}`)}, now() - g * interval '1 minute', '{"source":"api"}', 'created', '{}'
       FROM generate_series(1, ${n.opportunityHistory}) g`,
      `INSERT INTO contracts (id, company_id, title, status, value_cents, client_id, variables, content, signers, expires_in_days, sent_at, signed_at,
         created_at, updated_at)
       SELECT ${id('ko', 'g')}, ${co('g')}, 'Contrato ' || g, 'signed', 1000, ${id('ct', `1 + (g - 1) % ${contacts}`)}, '{}', 'Texto', '[]', 7,
         now() - g * interval '15 minutes', now() - g * interval '15 minutes', now() - g * interval '15 minutes', now() - g * interval '15 minutes'
       FROM generate_series(1, ${n.contracts}) g`,
      `INSERT INTO webhook_deliveries (id, company_id, webhook_id, event_id, event, payload, status, attempts, round_attempts, created_at, updated_at, completed_at)
       SELECT ${id('wd', 'g')}, ${co('g')}, ${id('wh', `g % ${COMPANIES}`)}, ${id('ev', 'g')}, 'message.sent', '{}', 'succeeded', 1, 1,
         date_trunc('milliseconds', now() - g * interval '100 milliseconds'), now(), now()
       FROM generate_series(1, ${n.webhookDeliveries}) g`,
    ];
    for (const statement of statements) {
      const started = performance.now();
      await client.query(statement);
      if (process.env.PLAN_AUDIT_VERBOSE === '1') console.log(`${Math.round(performance.now() - started)} ms: ${statement.slice(0, 40)}`);
    }
    await client.query('SET session_replication_role = DEFAULT');
    await client.query('ANALYZE');
    const busy = await client.query<{ id: string }>(`SELECT md5('plans-co' || 0)::uuid::text AS id`);
    return { rows: n, busyCompanyId: busy.rows[0]!.id };
  } finally {
    await client.end();
  }
}
