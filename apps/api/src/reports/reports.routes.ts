import { GetSummaryReport, type SummaryReport } from '@carteiro/core';
import { defineRoute } from '../http/route.js';
import { s, typed } from '../http/schema.js';

interface SummaryQuery {
  from?: string;
  to?: string;
  setor_id?: string;
}

const count = () => s.integer({ minimum: 0 });

function summaryView(r: SummaryReport) {
  return {
    period: { from: r.period.from.toISOString(), to: r.period.to.toISOString() },
    messages: r.messages,
    response_time: { first_response_avg_seconds: r.responseTime.firstResponseAvgSeconds },
    campaigns: r.campaigns,
    csat: r.csat,
    appointments: { total: r.appointments.total, attended: r.appointments.attended, no_show: r.appointments.noShow, cancelled: r.appointments.cancelled },
    crm: { won: r.crm.won, lost: r.crm.lost, won_value: r.crm.wonValueCents / 100 },
  };
}

/** Reports (business.md §6). */
export const reportsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/reports/summary',
    auth: { scope: 'reports:read' },
    operationId: 'getSummaryReport',
    summary: 'Summary report of a period',
    description:
      'Counts over `[from, to)` (default: the 30 days before now; at most 366 days): single and timed messages sent/failed and inbound messages received, the average first response of conversations opened in the period, campaigns created in it with their recipients and outcomes, appointments starting in it, opportunities closed in it. CSAT answers zeros until tickets keep ratings. `setor_id` narrows messages, response time and campaigns to one box.',
    tag: 'Reports',
    query: typed<SummaryQuery>({
      type: 'object',
      properties: {
        from: { type: 'string', format: 'date-time', description: 'An instant with its offset.' },
        to: { type: 'string', format: 'date-time', description: 'An instant with its offset; now when omitted.' },
        setor_id: { type: 'string', format: 'uuid' },
      },
    }),
    validationCode: 'BAD_REQUEST',
    response: {
      status: 200,
      description: 'The report.',
      data: s.object({
        period: s.object({ from: s.dateTime(), to: s.dateTime() }),
        messages: s.object({ sent: count(), failed: count(), received: count() }),
        response_time: s.object({ first_response_avg_seconds: s.nullableInteger() }),
        campaigns: s.object({ created: count(), completed: count(), recipients: count(), sent: count(), failed: count(), skipped: count() }),
        csat: s.object({
          average: { type: ['number', 'null'] },
          responses: count(),
          distribution: s.object({ '1': count(), '2': count(), '3': count(), '4': count(), '5': count() }),
        }),
        appointments: s.object({ total: count(), attended: count(), no_show: count(), cancelled: count() }),
        crm: s.object({ won: count(), lost: count(), won_value: s.number({ minimum: 0, description: 'BRL.' }) }),
      }),
    },
    errors: ['BAD_REQUEST'],
    async handler({ query, principal, use }) {
      const report = await use(GetSummaryReport).execute(principal.company.id, {
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
        setorId: query.setor_id ?? null,
      });
      return summaryView(report);
    },
  }),
];
