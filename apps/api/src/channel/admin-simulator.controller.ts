import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import { ChannelSimulatorStore, ValidationError } from '@carteiro/core';
import type { Controller } from '../http/controller.js';
import { ok } from '../http/envelope.js';
import { validate } from '../http/validation.js';
import { simulatorMessagesQuerySchema } from './channel.schemas.js';
import { simulatedMessageView } from './channel-views.js';

const MAX_LIMIT = 500;

/** GET /admin/v1/simulator/messages: what the simulator was asked to send, newest first (operations.md §3). */
@injectable()
export class AdminSimulatorController implements Controller {
  constructor(@inject(ChannelSimulatorStore) private readonly store: ChannelSimulatorStore) {}

  register(router: Router): void {
    router.get('/simulator/messages', async (req, res) => {
      const query = validate<{ to?: string; setor_id?: string; company_id?: string; limit?: string }>(simulatorMessagesQuerySchema, { ...req.query });
      const limit = query.limit === undefined ? 50 : Number(query.limit);
      if (limit < 1 || limit > MAX_LIMIT) throw new ValidationError(`limit must be from 1 to ${MAX_LIMIT}`, { field: 'limit', max: MAX_LIMIT });
      const items = await this.store.listMessages({
        to: query.to,
        setorId: query.setor_id?.toLowerCase(),
        companyId: query.company_id?.toLowerCase(),
        limit,
      });
      ok(res, { items: items.map(simulatedMessageView), limit });
    });
  }
}
