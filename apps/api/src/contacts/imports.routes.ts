import { CreateContactImport, MAX_IMPORT_ROWS, ReadContactImport, type ContactImportMode, type ContactRepositories, type IdempotentRequests, type ImportRowInput, type TagRepositories } from '@carteiro/core';
import { defineRoute, idParam, reply } from '../http/route.js';
import { getById } from '../shared/get-by-id.js';
import { component, s, typed } from '../http/schema.js';
import { importView } from './contact-views.js';
import { rowsFromCsv } from './import-csv.js';
import { idempotencyHeader, replayMeta } from './contacts.routes.js';
import { ContactIdempotency } from './contacts.module.js';
import { idempotencyOf } from '../shared/idempotency-of.js';

const scope = { scope: 'imports:write' } as const;
const rowError = s.object({ row: s.integer(), field: s.nullableString(), code: s.string(), message: s.string() });
const ImportJob = component(
  'ContactImport',
  s.object({
    job_id: s.uuid(),
    status: s.enum(['queued', 'running', 'completed', 'failed']),
    mode: s.enum(['fill', 'overwrite', 'create_only']),
    total: s.integer(),
    processed: s.integer(),
    created: s.integer(),
    updated: s.integer(),
    skipped: s.integer(),
    failed: s.integer(),
    progress: s.integer({ minimum: 0, maximum: 100 }),
    errors: s.array(rowError, { description: 'Up to 1000 row errors, in row order.' }),
    error: { type: ['object', 'null'], description: 'Why a failed import stopped.' },
    started_at: s.nullableDateTime(),
    finished_at: s.nullableDateTime(),
    created_at: s.dateTime(),
  }),
);

interface ImportBody {
  type: 'contacts';
  rows?: ImportRowInput[];
  csv?: string;
  mode?: ContactImportMode;
  tag_ids?: string[];
}

/** Contact imports (conversations.md §7). */
export const importsRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/imports',
    auth: scope,
    operationId: 'createImport',
    summary: 'Queue a contact import',
    description:
      '`rows` (1-10,000) or `csv` (text with a header: phone, name, email, tag_ids separated by `;`, other columns as custom fields; up to 5 MB). ' +
      'Batches of 500 are written in turn; a third queued or running import is a 403 CONCURRENT_LIMIT_EXCEEDED.',
    tag: 'Imports',
    headers: idempotencyHeader,
    body: {
      schema: typed<ImportBody>({
        type: 'object',
        required: ['type'],
        additionalProperties: false,
        oneOf: [{ required: ['rows'] }, { required: ['csv'] }],
        properties: {
          type: s.enum(['contacts']),
          rows: s.array(
            {
              type: 'object',
              additionalProperties: false,
              properties: {
                phone: s.string({ maxLength: 64 }),
                name: s.nullableString({ maxLength: 100 }),
                email: s.nullableString({ maxLength: 254 }),
                custom_fields: { type: 'object', additionalProperties: true },
                tag_ids: s.array(s.string({ maxLength: 64 }), { maxItems: 50 }),
              },
            },
            { minItems: 1, maxItems: MAX_IMPORT_ROWS },
          ),
          csv: s.string({ minLength: 1, maxLength: 5 * 1024 * 1024 }),
          mode: s.enum(['fill', 'overwrite', 'create_only'], { default: 'fill' }),
          tag_ids: s.array(s.uuid(), { maxItems: 50 }),
        },
      }),
      example: { type: 'contacts', rows: [{ phone: '+5511987654321', name: 'Ana' }], mode: 'fill' },
    },
    response: { status: 202, description: 'Queued.', data: s.object({ job_id: s.uuid(), status: s.enum(['queued']), total: s.integer() }), meta: replayMeta },
    errors: ['NOT_FOUND', 'CONCURRENT_LIMIT_EXCEEDED', 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_MISMATCH'],
    async handler({ body, headers, principal, res, use }) {
      const rows = body.csv !== undefined ? rowsFromCsv(body.csv) : body.rows!;
      const input = { rows, mode: body.mode, tagIds: body.tag_ids?.map((t) => t.toLowerCase()), fromText: body.csv !== undefined };
      const create = use(CreateContactImport);
      const idempotency = idempotencyOf(headers, principal, '/v1/imports', body);
      if (idempotency === undefined) {
        const job = await create.execute(principal.company, input);
        return reply({ job_id: job.id, status: 'queued', total: job.total }, { status: 202 });
      }
      const outcome = await use<IdempotentRequests<ContactRepositories & TagRepositories>>(ContactIdempotency).run(
        principal.company.id,
        idempotency,
        async (repos) => {
          const job = await create.run(repos, principal.company, input);
          return { status: 202, body: { job_id: job.id, status: 'queued', total: job.total } };
        },
      );
      if (!outcome.replay) return reply(outcome.body, { status: outcome.status });
      res.setHeader('Idempotent-Replayed', 'true');
      return reply(outcome.body, { status: outcome.status, meta: { idempotent_replay: true } });
    },
  }),
  getById({
    path: '/v1/imports/:id', auth: scope, params: { id: idParam('import', 'Import') },
    operationId: 'getImport', summary: 'Follow a contact import', tag: 'Imports',
    response: { description: 'Progress, counts (as the database reported them) and row errors.', data: ImportJob },
    read: async (use, companyId, id) => importView(await use(ReadContactImport).execute(companyId, id)),
  }),
];
