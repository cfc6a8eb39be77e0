import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import { AdminService, ValidationError, type CompanySettingsInput } from '@carteiro/core';
import type { Controller } from '../http/controller.js';
import { ok, paged } from '../http/envelope.js';
import { validate } from '../http/validation.js';
import { apiKeyView, companyView } from './admin-views.js';
import {
  createApiKeySchema,
  createCompanySchema,
  rotateApiKeySchema,
  updateCompanySchema,
  uuidParam,
  type CompanyBody,
  type CreateApiKeyBody,
} from './admin.schemas.js';

function toSettings(body: CompanyBody): CompanySettingsInput {
  return {
    name: body.name,
    planCode: body.plan_code,
    modality: body.modality,
    expiresAt: body.expires_at === undefined ? undefined : body.expires_at === null ? null : new Date(body.expires_at),
    avulsoBalance: body.avulso_balance,
    unlimited: body.unlimited,
    bulkMessagingEnabled: body.bulk_messaging_enabled,
    multiNumberEnabled: body.multi_number_enabled,
    dailyLimit: body.daily_limit,
    concurrentCampaignsLimit: body.concurrent_campaigns_limit,
    companyRpm: body.company_rpm,
    safeHours: body.safe_hours,
    timezone: body.timezone,
  };
}

function checkTimezone(timezone: string | undefined): void {
  if (timezone === undefined) return;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new ValidationError(`Unknown time zone ${timezone}`, { field: 'timezone' });
  }
}

/** Companies and their API keys. */
@injectable()
export class AdminCompaniesController implements Controller {
  constructor(@inject(AdminService) private readonly admin: AdminService) {}

  register(router: Router): void {
    router.post('/companies', async (req, res) => {
      const body = validate<CompanyBody & { name: string }>(createCompanySchema, req.body);
      checkTimezone(body.timezone);
      const company = await this.admin.createCompany({ ...toSettings(body), name: body.name });
      ok(res, companyView(company), 201);
    });

    router.get('/companies/:id', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      ok(res, companyView(await this.admin.getCompany(id)));
    });

    router.patch('/companies/:id', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const body = validate<CompanyBody>(updateCompanySchema, req.body);
      checkTimezone(body.timezone);
      ok(res, companyView(await this.admin.updateCompany(id, toSettings(body))));
    });

    router.post('/companies/:id/api-keys', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const body = validate<CreateApiKeyBody>(createApiKeySchema, req.body);
      const issued = await this.admin.createApiKey(id, body);
      ok(res, { ...apiKeyView(issued.apiKey), key: issued.key }, 201);
    });

    router.get('/companies/:id/api-keys', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const page = await this.admin.listApiKeys(id, paged(req.query, 100));
      ok(res, { ...page, items: page.items.map(apiKeyView) });
    });

    router.post('/api-keys/:id/rotate', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const body = validate<{ grace_seconds?: number }>(rotateApiKeySchema, req.body ?? {});
      const issued = await this.admin.rotateApiKey(id, body.grace_seconds ?? 86_400);
      ok(res, { ...apiKeyView(issued.apiKey), key: issued.key }, 201);
    });

    router.delete('/api-keys/:id', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const revoked = await this.admin.revokeApiKey(id);
      ok(res, { revoked: true, id: revoked.id });
    });
  }
}
