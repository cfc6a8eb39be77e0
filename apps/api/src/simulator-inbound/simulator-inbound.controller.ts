import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import { ReceiveInboundMessage } from '@carteiro/core';
import type { Controller } from '../http/controller.js';
import { ok } from '../http/envelope.js';
import { validate } from '../http/validation.js';

export const inboundSchema = {
  type: 'object',
  required: ['setor_id', 'from', 'text'],
  properties: {
    setor_id: { type: 'string', format: 'uuid' },
    from: { type: 'string' },
    text: { type: 'string' },
  },
};

/** POST /admin/v1/simulator/inbound: a contact writes to a box (opens the official 24-hour window). */
@injectable()
export class SimulatorInboundController implements Controller {
  constructor(@inject(ReceiveInboundMessage) private readonly receive: ReceiveInboundMessage) {}

  register(router: Router): void {
    router.post('/simulator/inbound', async (req, res) => {
      const body = validate<{ setor_id: string; from: string; text: string }>(inboundSchema, req.body ?? {});
      const result = await this.receive.execute({ setorId: body.setor_id.toLowerCase(), from: body.from, text: body.text });
      ok(
        res,
        {
          message_id: result.messageId,
          company_id: result.companyId,
          setor_id: result.setorId,
          from: result.from,
          client_id: result.contactId,
          contact_created: result.contactCreated,
          conversation_id: result.conversationId,
          conversation_created: result.conversationCreated,
          received_at: result.receivedAt.toISOString(),
          window_open_until: result.windowOpenUntil.toISOString(),
        },
        201,
      );
    });
  }
}
