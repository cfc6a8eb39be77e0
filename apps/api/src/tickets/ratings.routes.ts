import { GetRatingReport } from '@carteiro/core';
import { defineRoute } from '../http/route.js';
import { component, s, typed } from '../http/schema.js';
import { ratingReportView } from './ticket-messages-views.js';

interface RatingsQuery {
  from?: string;
  to?: string;
  setor_id?: string;
  team_id?: string;
  agent_id?: string;
}

const count = () => s.integer({ minimum: 0 });
const nullableNumber = (description: string) => ({ type: ['number', 'null'], description });
const stats = {
  responded: count(),
  average: nullableNumber('Mean score, 2 decimals; null without ratings.'),
  csat_percent: nullableNumber('Share of 4 and 5 among the ratings, 0-100; null without ratings.'),
};

const RatingReport = component(
  'RatingReport',
  s.object({
    from: s.dateTime(),
    to: s.dateTime(),
    summary: s.object({
      requested: count(),
      ...stats,
      response_rate: nullableNumber('responded / requested, 0-1; null when nothing was requested.'),
      distribution: s.object({ '1': count(), '2': count(), '3': count(), '4': count(), '5': count() }),
    }),
    ranking: s.array(s.object({ agent_id: s.uuid(), name: s.nullableString(), ...stats })),
    recent: s.array(
      s.object({
        ticket_id: s.uuid(),
        number: s.integer(),
        setor_id: s.uuid(),
        client_id: s.uuid(),
        agent_id: s.nullableUuid(),
        team_id: s.nullableUuid(),
        score: s.integer({ minimum: 1, maximum: 5 }),
        comment: s.nullableString(),
        rated_at: s.dateTime(),
        source: s.nullableString(),
      }),
    ),
  }),
);

/** GET /v1/ratings (conversations.md §6). */
export const ratingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/ratings',
    auth: { scope: 'reports:read' },
    operationId: 'getRatings',
    summary: 'CSAT ratings of a period',
    description:
      'Tickets whose rating was requested in `[from, to)` (rated without a request: rated in it), default the last 30 days, at most 366; ' +
      '`setor_id`, and the `team_id` and `agent_id` credited at closing. Summary (requested, responded, response rate, average, CSAT % of 4-5, ' +
      'distribution), ranking per agent (CSAT %, then average, then responses) and the 20 latest ratings.',
    tag: 'Tickets',
    query: typed<RatingsQuery>({
      type: 'object',
      properties: {
        from: { type: 'string', format: 'date-time' },
        to: { type: 'string', format: 'date-time', description: 'Now when omitted.' },
        setor_id: { type: 'string', format: 'uuid' },
        team_id: { type: 'string', format: 'uuid' },
        agent_id: { type: 'string', format: 'uuid' },
      },
    }),
    response: { status: 200, description: 'The report.', data: RatingReport },
    async handler({ query, principal, use }) {
      const report = await use(GetRatingReport).execute({
        companyId: principal.company.id,
        from: query.from ? new Date(query.from) : null,
        to: query.to ? new Date(query.to) : null,
        ...(query.setor_id ? { setorId: query.setor_id.toLowerCase() } : {}),
        ...(query.team_id ? { teamId: query.team_id.toLowerCase() } : {}),
        ...(query.agent_id ? { agentId: query.agent_id.toLowerCase() } : {}),
      });
      return ratingReportView(report);
    },
  }),
];
