import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import {
  CreateChannelInstance,
  DisconnectChannelInstance,
  GetChannelHealth,
  GetInstanceStatus,
  ListChannelInstances,
  NotFoundError,
  RefreshInstanceProfile,
  Repositories,
  RequestInstanceQr,
  UpdateChannelProfiles,
  loadInstanceInCompany,
  type ProfileBatchResult,
  type Repositories as Repos,
} from '@carteiro/core';
import { auth, requireScope } from '../http/auth.js';
import type { Controller } from '../http/controller.js';
import { ok, paged } from '../http/envelope.js';
import { validate } from '../http/validation.js';
import { createInstanceSchema, healthQuerySchema, pictureBatchSchema, profileBatchSchema, type ProfileBatchBody } from './channel.schemas.js';
import { createdInstanceView, healthItemView, instanceView, profileResultView } from './channel-views.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in a path that cannot exist answers 404, as a missing one does. */
function instanceId(value: string | string[] | undefined): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw new NotFoundError('Channel instance');
  return value.toLowerCase();
}

function batchView(results: ProfileBatchResult[]) {
  const updated = results.filter((r) => r.success).length;
  return { results: results.map(profileResultView), updated, failed: results.length - updated };
}

/** The `/v1/channel/instances` routes (scope channel:manage). Bodies the specification leaves open: docs/channel.md. */
@injectable()
export class ChannelController implements Controller {
  constructor(
    @inject(CreateChannelInstance) private readonly create: CreateChannelInstance,
    @inject(RequestInstanceQr) private readonly qr: RequestInstanceQr,
    @inject(GetInstanceStatus) private readonly status: GetInstanceStatus,
    @inject(DisconnectChannelInstance) private readonly disconnect: DisconnectChannelInstance,
    @inject(GetChannelHealth) private readonly health: GetChannelHealth,
    @inject(ListChannelInstances) private readonly list: ListChannelInstances,
    @inject(RefreshInstanceProfile) private readonly refresh: RefreshInstanceProfile,
    @inject(UpdateChannelProfiles) private readonly profiles: UpdateChannelProfiles,
    @inject(Repositories) private readonly repos: Repos,
  ) {}

  register(router: Router): void {
    const manage = requireScope('channel:manage');

    router.post('/channel/instances', manage, async (req, res) => {
      const body = validate<{ setor_id: string }>(createInstanceSchema, req.body ?? {});
      const { instance, reused } = await this.create.execute({ companyId: auth(req).company.id, setorId: body.setor_id.toLowerCase() });
      ok(res, createdInstanceView(instance, reused), 201);
    });

    router.get('/channel/instances', manage, async (req, res) => {
      const page = await this.list.execute({ companyId: auth(req).company.id, page: paged(req.query, 100) });
      ok(res, { ...page, items: page.items.map(instanceView) });
    });

    // Before the `:id` routes: "health" is not an instance id.
    router.get('/channel/instances/health', manage, async (req, res) => {
      const query = validate<{ include_history?: string; history_minutes?: string }>(healthQuerySchema, { ...req.query });
      const items = await this.health.execute({
        companyId: auth(req).company.id,
        includeHistory: query.include_history === 'true' || query.include_history === '1',
        historyMinutes: query.history_minutes === undefined ? undefined : Number(query.history_minutes),
      });
      ok(res, { items: items.map(healthItemView) });
    });

    router.post('/channel/instances/profile/batch', manage, async (req, res) => {
      const body = validate<ProfileBatchBody>(profileBatchSchema, req.body ?? {});
      const results = await this.profiles.execute({
        companyId: auth(req).company.id,
        mode: auth(req).apiKey.mode,
        items: body.items.map((i) => ({ setorId: i.setor_id?.toLowerCase(), phoneNumber: i.phone_number, name: i.name, pictureUrl: i.picture_url })),
      });
      ok(res, batchView(results));
    });

    router.post('/channel/instances/profile-picture/batch', manage, async (req, res) => {
      const body = validate<ProfileBatchBody>(pictureBatchSchema, req.body ?? {});
      const results = await this.profiles.execute({
        companyId: auth(req).company.id,
        mode: auth(req).apiKey.mode,
        items: body.items.map((i) => ({ setorId: i.setor_id?.toLowerCase(), phoneNumber: i.phone_number, pictureUrl: i.picture_url })),
      });
      ok(res, batchView(results));
    });

    router.get('/channel/instances/:id', manage, async (req, res) => {
      ok(res, instanceView(await loadInstanceInCompany(this.repos, auth(req).company.id, instanceId(req.params.id))));
    });

    router.get('/channel/instances/:id/qr', manage, async (req, res) => {
      const result = await this.qr.execute({ companyId: auth(req).company.id, instanceId: instanceId(req.params.id), mode: auth(req).apiKey.mode });
      ok(res, {
        instance_id: result.instanceId,
        qr_code: result.qrCode,
        expires_in: result.expiresInSeconds,
        status: result.status,
        phone_number: result.phoneNumber,
      });
    });

    router.get('/channel/instances/:id/status', manage, async (req, res) => {
      const instance = await this.status.execute({ companyId: auth(req).company.id, instanceId: instanceId(req.params.id), mode: auth(req).apiKey.mode });
      ok(res, { instance_id: instance.id, status: instance.status, phone_number: instance.phoneNumber });
    });

    router.post('/channel/instances/:id/disconnect', manage, async (req, res) => {
      const result = await this.disconnect.execute({ companyId: auth(req).company.id, instanceId: instanceId(req.params.id), mode: auth(req).apiKey.mode });
      ok(res, {
        instance_id: result.instance.id,
        status: result.instance.status,
        was_connected: result.wasConnected,
        disconnected_at: result.instance.disconnectedAt ? new Date(result.instance.disconnectedAt).toISOString() : null,
      });
    });

    router.post('/channel/instances/:id/profile/refresh', manage, async (req, res) => {
      const companyId = auth(req).company.id;
      const instance = await this.refresh.execute({ companyId, instanceId: instanceId(req.params.id), mode: auth(req).apiKey.mode });
      ok(res, instanceView(await loadInstanceInCompany(this.repos, companyId, instance.id)));
    });
  }
}
