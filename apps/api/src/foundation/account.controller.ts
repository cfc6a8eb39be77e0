import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import { GetLimits, Repositories, displayedBalance, type Repositories as Repos } from '@carteiro/core';
import { auth, requireScope } from '../http/auth.js';
import type { Controller } from '../http/controller.js';
import { ok, paged } from '../http/envelope.js';

/** Limits, balances and the discovery lists of boxes and teams. */
@injectable()
export class AccountController implements Controller {
  constructor(
    @inject(GetLimits) private readonly limits: GetLimits,
    @inject(Repositories) private readonly repos: Repos,
  ) {}

  register(router: Router): void {
    router.get('/limits', requireScope('credits:read'), async (req, res) => {
      ok(res, await this.limits.execute(auth(req)));
    });

    router.get('/billing/balance', requireScope('credits:read'), async (req, res) => {
      const { company } = auth(req);
      ok(res, {
        modality: company.modality,
        unlimited: company.unlimited,
        balances: {
          messages: displayedBalance(company),
          ai_credits: 0,
          lead_credits: 0,
        },
      });
    });

    router.get('/setores', requireScope('tickets:read'), async (req, res) => {
      const { company } = auth(req);
      const page = await this.repos.setores.listByCompany(company.id, paged(req.query, 100));
      const instances = new Map((await this.repos.channelInstances.listByCompany(company.id)).map((i) => [i.setorId, i]));
      ok(res, {
        ...page,
        items: page.items.map((setor) => {
          const instance = instances.get(setor.id);
          return {
            id: setor.id,
            nome: setor.nome,
            channel_type: setor.channelType,
            instance_id: instance?.id ?? null,
            status: instance?.status ?? 'disconnected',
            connected: instance?.status === 'connected',
            phone_number: instance?.phoneNumber ?? null,
            created_at: setor.createdAt.toISOString(),
          };
        }),
      });
    });

    router.get('/teams', requireScope('tickets:read'), async (req, res) => {
      const { company } = auth(req);
      const page = await this.repos.teams.listByCompany(company.id, paged(req.query, 100));
      ok(res, {
        ...page,
        items: page.items.map((team) => ({ id: team.id, nome: team.nome, setor_ids: team.setorIds, created_at: team.createdAt.toISOString() })),
      });
    });
  }
}
