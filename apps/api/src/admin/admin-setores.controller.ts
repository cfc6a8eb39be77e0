import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import { AdminService, type Setor } from '@carteiro/core';
import type { Controller } from '../http/controller.js';
import { ok, paged } from '../http/envelope.js';
import { validate } from '../http/validation.js';
import { setorView, teamView } from './admin-views.js';
import { createSetorSchema, createTeamSchema, updateSetorSchema, uuidParam, type CreateSetorBody } from './admin.schemas.js';

/** The warming state of a box, as `GET /admin/v1/setores/:id` shows it. */
export interface SetorWarmingView {
  stage: number;
  daily_limit: number;
  sent_today: number;
}
export const SetorWarmingReader = Symbol.for('carteiro.api.SetorWarmingReader');
export type SetorWarmingReader = (setor: Setor) => Promise<SetorWarmingView>;

/** Boxes and teams. */
@injectable()
export class AdminSetoresController implements Controller {
  constructor(
    @inject(AdminService) private readonly admin: AdminService,
    @inject(SetorWarmingReader) private readonly warming: SetorWarmingReader,
  ) {}

  register(router: Router): void {
    router.post('/companies/:id/setores', async (req, res) => {
      const companyId = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const body = validate<CreateSetorBody>(createSetorSchema, req.body);
      const setor = await this.admin.createSetor(companyId, {
        nome: body.nome,
        channelType: body.channel_type,
        official: body.official
          ? { phoneNumberId: body.official.phone_number_id, accessToken: body.official.access_token, wabaId: body.official.waba_id }
          : null,
      });
      ok(res, setorView(setor), 201);
    });

    router.get('/companies/:id/setores', async (req, res) => {
      const companyId = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const page = await this.admin.listSetores(companyId, paged(req.query, 100));
      ok(res, { ...page, items: page.items.map(setorView) });
    });

    router.get('/setores/:id', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const setor = await this.admin.getSetor(id);
      ok(res, { ...setorView(setor), warming: await this.warming(setor) });
    });

    router.patch('/setores/:id', async (req, res) => {
      const id = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const body = validate<{ nome?: string; warming_daily_limit?: number | null }>(updateSetorSchema, req.body);
      const setor = await this.admin.updateSetor(id, { nome: body.nome, warmingDailyLimit: body.warming_daily_limit });
      ok(res, { ...setorView(setor), warming: await this.warming(setor) });
    });

    router.post('/companies/:id/teams', async (req, res) => {
      const companyId = validate<string>(uuidParam, req.params.id, 'BAD_REQUEST');
      const body = validate<{ nome: string; setor_ids?: string[] }>(createTeamSchema, req.body);
      ok(res, teamView(await this.admin.createTeam(companyId, { nome: body.nome, setorIds: body.setor_ids })), 201);
    });
  }
}
