import type { Request, Router } from 'express';
import { inject, injectable } from 'inversify';
import {
  CancelCampaign,
  CreateCampaign,
  NotFoundError,
  PauseCampaign,
  ReadCampaigns,
  ResumeCampaign,
  RetryCampaignMessages,
  requestFingerprint,
  type CampaignCaller,
  type CampaignStatus,
  type PublicMessageStatus,
  type RetryCampaignInput,
} from '@carteiro/core';
import { auth, requireScope } from '../http/auth.js';
import type { Controller } from '../http/controller.js';
import { ok, paged } from '../http/envelope.js';
import { validate } from '../http/validation.js';
import {
  campaignCreatedView,
  campaignDetailView,
  campaignListItemView,
  campaignMessageView,
  campaignRecipientView,
  createCampaignCommand,
  type CreateCampaignBody,
} from './campaign-views.js';
import { campaignListQuerySchema, createCampaignSchema, messageListQuerySchema, retryCampaignSchema } from './campaigns.schemas.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in a path that cannot exist answers 404, as another company's does. */
function campaignId(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !UUID.test(id)) throw new NotFoundError('Campaign', { id });
  return id.toLowerCase();
}

function caller(req: Request): CampaignCaller {
  const principal = auth(req);
  return { companyId: principal.company.id, apiKeyId: principal.apiKey.id, mode: principal.apiKey.mode };
}

/** Every /v1/campaigns route of the specification. */
@injectable()
export class CampaignsController implements Controller {
  constructor(
    @inject(CreateCampaign) private readonly create: CreateCampaign,
    @inject(PauseCampaign) private readonly pause: PauseCampaign,
    @inject(ResumeCampaign) private readonly resume: ResumeCampaign,
    @inject(CancelCampaign) private readonly cancel: CancelCampaign,
    @inject(RetryCampaignMessages) private readonly retry: RetryCampaignMessages,
    @inject(ReadCampaigns) private readonly reads: ReadCampaigns,
  ) {}

  register(router: Router): void {
    const write = requireScope('campaigns:write');
    const read = requireScope('campaigns:read');

    router.post('/campaigns', write, async (req, res) => {
      const body = validate<CreateCampaignBody>(createCampaignSchema, req.body ?? {});
      const key = req.get('Idempotency-Key');
      const idempotency = key === undefined ? undefined : { key, requestHash: requestFingerprint({ method: 'POST', path: '/v1/campaigns', body }) };
      const { created, replay } = await this.create.execute(caller(req), createCampaignCommand(body), idempotency);
      if (replay) res.setHeader('Idempotent-Replayed', 'true');
      ok(res, campaignCreatedView(created), 202, replay ? { idempotent_replay: true } : undefined);
    });

    router.get('/campaigns', read, async (req, res) => {
      const query = validate<{ status?: CampaignStatus }>(campaignListQuerySchema, req.query);
      const page = await this.reads.list(auth(req).company.id, query.status, paged(req.query, 100));
      ok(res, { ...page, items: page.items.map(campaignListItemView) });
    });

    router.get('/campaigns/:id', read, async (req, res) => {
      ok(res, campaignDetailView(await this.reads.detail(auth(req).company.id, campaignId(req))));
    });

    router.get('/campaigns/:id/messages', read, async (req, res) => {
      const query = validate<{ status?: PublicMessageStatus }>(messageListQuerySchema, req.query);
      const page = await this.reads.messages(auth(req).company.id, campaignId(req), query.status, paged(req.query, 200));
      ok(res, { ...page, items: page.items.map(campaignMessageView) });
    });

    router.get('/campaigns/:id/recipients', read, async (req, res) => {
      const query = validate<{ status?: PublicMessageStatus; q?: string }>(messageListQuerySchema, req.query);
      const filter = { ...(query.status ? { status: query.status } : {}), ...(query.q ? { q: query.q } : {}) };
      const page = await this.reads.recipients(auth(req).company.id, campaignId(req), filter, paged(req.query, 200));
      ok(res, { ...page, items: page.items.map(campaignRecipientView) });
    });

    router.post('/campaigns/:id/pause', write, async (req, res) => {
      ok(res, await this.pause.execute(auth(req).company.id, campaignId(req)));
    });

    router.post('/campaigns/:id/resume', write, async (req, res) => {
      ok(res, await this.resume.execute(auth(req).company.id, campaignId(req)));
    });

    router.post('/campaigns/:id/cancel', write, async (req, res) => {
      ok(res, await this.cancel.execute(auth(req).company.id, campaignId(req)));
    });

    router.post('/campaigns/:id/retry', write, async (req, res) => {
      const body = validate<RetryCampaignInput>(retryCampaignSchema, req.body ?? {});
      ok(res, await this.retry.execute(auth(req).company.id, campaignId(req), body));
    });
  }
}
