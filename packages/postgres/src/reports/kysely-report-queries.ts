import type { ReportQueries, SummaryQuery, SummaryReport } from '@carteiro/core';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../shared/database.js';

const n = (v: unknown) => Number(v ?? 0);

/**
 * The summary report in one round trip of aggregates, each on an index: messages by
 * `messages_report_idx` (index-only), received messages and first responses by
 * `domain_events_report_idx`, campaigns by `campaigns_company_idx`, appointments by
 * `appointments_company_start_idx`, won/lost opportunities by company. First response: for each
 * conversation opened in the period (its first inbound message), the time to the first message the
 * setor sent into it afterwards. CSAT: the ratings (1-5) given in the period, on the tickets they rate.
 */
export class KyselyReportQueries implements ReportQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async summary(q: SummaryQuery): Promise<SummaryReport> {
    const setor = q.setorId;
    const { rows } = await sql<Record<string, unknown>>`
      SELECT
        m.sent, m.failed,
        (SELECT count(*) FROM domain_events e
          WHERE e.company_id = ${q.companyId} AND e.event = 'message.received' AND e.occurred_at >= ${q.from} AND e.occurred_at < ${q.to}
            AND (${setor}::uuid IS NULL OR e.setor_id = ${setor}::uuid)) AS received,
        (SELECT avg(extract(epoch FROM r.first_at - e.occurred_at)) FROM domain_events e
          CROSS JOIN LATERAL (
            SELECT min(x.created_at) AS first_at FROM messages x
            WHERE x.conversation_id = (e.data->>'conversationId')::uuid AND x.created_at >= e.occurred_at AND x.status <> 'failed'
              AND x.direction = 'outbound' AND x.type = 'message'
          ) r
          WHERE e.company_id = ${q.companyId} AND e.event = 'conversation.created' AND e.occurred_at >= ${q.from} AND e.occurred_at < ${q.to}
            AND (${setor}::uuid IS NULL OR e.setor_id = ${setor}::uuid) AND r.first_at IS NOT NULL) AS first_response,
        c.created, c.completed, c.recipients, c.c_sent, c.c_failed, c.c_skipped,
        a.total AS a_total, a.attended, a.no_show, a.cancelled,
        o.won, o.lost, o.won_value,
        r.responses, r.average, r.s1, r.s2, r.s3, r.s4, r.s5
      FROM
        (SELECT count(*) FILTER (WHERE status IN ('sent', 'delivered', 'read')) AS sent, count(*) FILTER (WHERE status = 'failed') AS failed
          FROM messages WHERE company_id = ${q.companyId} AND created_at >= ${q.from} AND created_at < ${q.to}
            AND (${setor}::uuid IS NULL OR setor_id = ${setor}::uuid)) m,
        (SELECT count(*) AS created, count(*) FILTER (WHERE status = 'concluido') AS completed,
                coalesce(sum(total), 0) AS recipients, coalesce(sum(enviados), 0) AS c_sent,
                coalesce(sum(falhas), 0) AS c_failed, coalesce(sum(pulados), 0) AS c_skipped
          FROM campaigns WHERE company_id = ${q.companyId} AND created_at >= ${q.from} AND created_at < ${q.to}
            AND (${setor}::uuid IS NULL OR ${setor}::uuid = ANY (setor_ids))) c,
        (SELECT count(*) AS total, count(*) FILTER (WHERE status = 'attended') AS attended,
                count(*) FILTER (WHERE status = 'no_show') AS no_show, count(*) FILTER (WHERE status = 'cancelled') AS cancelled
          FROM appointments WHERE company_id = ${q.companyId} AND starts_at >= ${q.from} AND starts_at < ${q.to}) a,
        (SELECT count(*) FILTER (WHERE status = 'won') AS won, count(*) FILTER (WHERE status = 'lost') AS lost,
                coalesce(sum(effective_value_cents) FILTER (WHERE status = 'won'), 0) AS won_value
          FROM crm_opportunities WHERE company_id = ${q.companyId} AND deleted_at IS NULL AND status IN ('won', 'lost')
            AND closed_at >= ${q.from} AND closed_at < ${q.to}) o,
        (SELECT count(*) AS responses, avg(rating_score) AS average,
                count(*) FILTER (WHERE rating_score = 1) AS s1, count(*) FILTER (WHERE rating_score = 2) AS s2,
                count(*) FILTER (WHERE rating_score = 3) AS s3, count(*) FILTER (WHERE rating_score = 4) AS s4,
                count(*) FILTER (WHERE rating_score = 5) AS s5
          FROM tickets WHERE company_id = ${q.companyId} AND rating_score IS NOT NULL AND rated_at >= ${q.from} AND rated_at < ${q.to}
            AND (${setor}::uuid IS NULL OR setor_id = ${setor}::uuid)) r
    `.execute(this.db);
    const r = rows[0]!;
    return {
      period: { from: q.from, to: q.to },
      messages: { sent: n(r.sent), failed: n(r.failed), received: n(r.received) },
      responseTime: { firstResponseAvgSeconds: r.first_response === null || r.first_response === undefined ? null : Math.round(Number(r.first_response)) },
      campaigns: { created: n(r.created), completed: n(r.completed), recipients: n(r.recipients), sent: n(r.c_sent), failed: n(r.c_failed), skipped: n(r.c_skipped) },
      csat: {
        average: r.average === null || r.average === undefined ? null : Math.round(Number(r.average) * 100) / 100,
        responses: n(r.responses),
        distribution: { '1': n(r.s1), '2': n(r.s2), '3': n(r.s3), '4': n(r.s4), '5': n(r.s5) },
      },
      appointments: { total: n(r.a_total), attended: n(r.attended), noShow: n(r.no_show), cancelled: n(r.cancelled) },
      crm: { won: n(r.won), lost: n(r.lost), wonValueCents: n(r.won_value) },
    };
  }
}
