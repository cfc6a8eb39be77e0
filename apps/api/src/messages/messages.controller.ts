import type { Router } from 'express';
import { inject, injectable } from 'inversify';
import {
  ManageSentMessage,
  SendMessage,
  standardContent,
  validateEvent,
  validateInteractive,
  validatePoll,
  Clock,
  ValidationError,
  type SenderSelection,
} from '@carteiro/core';
import { auth, requireScope } from '../http/auth.js';
import type { Controller } from '../http/controller.js';
import { ok } from '../http/envelope.js';
import { validate } from '../http/validation.js';
import {
  editMessageSchema,
  eventSchema,
  firstContactSchema,
  interactiveSchema,
  pollSchema,
  reactionSchema,
  sendMessageSchema,
  type EventBody,
  type FirstContactBody,
  type InteractiveBody,
  type PollBody,
  type SelectionBody,
  type SendMessageBody,
} from './messages.schemas.js';
import { firstContactView, messageRecordView, sendResultView } from './messages-views.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The message id in the path (`:conversa_id`, the `message_id` of the send); a malformed one is a 400. */
function messageId(value: unknown): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw new ValidationError('conversa_id must be the message_id of a sent message', { field: 'conversa_id', value }, 'BAD_REQUEST');
  return value.toLowerCase();
}

function selection(body: SelectionBody): SenderSelection {
  return { setorId: body.setor_id ?? null, setorIds: body.setor_ids ?? null, teamId: body.team_id ?? null, multiNumber: body.multi_number ?? null };
}

/** Every /v1/messages route (scope messages:write). */
@injectable()
export class MessagesController implements Controller {
  constructor(
    @inject(SendMessage) private readonly sender: SendMessage,
    @inject(ManageSentMessage) private readonly manage: ManageSentMessage,
    @inject(Clock) private readonly clock: Clock,
  ) {}

  register(router: Router): void {
    const write = requireScope('messages:write');

    router.post('/messages', write, async (req, res) => {
      const body = validate<SendMessageBody>(sendMessageSchema, req.body ?? {}, 'BAD_REQUEST');
      const { company, apiKey } = auth(req);
      const m = body.message;
      const content = standardContent(
        {
          text: m.text,
          mediaUrl: m.media_url,
          mediaType: m.media_type,
          mediaDelivery: m.media_delivery,
          mediaFilename: m.media_filename,
          templateName: m.template_name,
          templateLanguage: m.template_language,
          templateComponents: m.template_components,
        },
        'message.',
      );
      const outcome = await this.sender.send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, clientId: body.client_id, selection: selection(body), content });
      ok(res, sendResultView(outcome), 201);
    });

    router.post('/messages/first-contact', write, async (req, res) => {
      const body = validate<FirstContactBody>(firstContactSchema, req.body ?? {}, 'BAD_REQUEST');
      const { company, apiKey } = auth(req);
      const content = standardContent({
        text: body.message,
        mediaUrl: body.media_url,
        mediaType: body.media_type,
        mediaDelivery: body.media_delivery,
        mediaFilename: body.media_filename,
        templateName: body.template_name,
        templateLanguage: body.template_language,
        templateComponents: body.template_components,
      });
      const outcome = await this.sender.sendFirstContact({
        companyId: company.id,
        keyMode: apiKey.mode,
        phone: body.phone,
        name: body.name ?? null,
        tagIds: body.tags ?? [],
        selection: selection(body),
        content,
      });
      ok(res, firstContactView(outcome), 201);
    });

    router.post('/messages/interactive', write, async (req, res) => {
      const body = validate<InteractiveBody>(interactiveSchema, req.body ?? {}, 'BAD_REQUEST');
      const { company, apiKey } = auth(req);
      const i = body.interactive;
      const interactive = validateInteractive({
        type: i.type,
        bodyText: i.body.text,
        ...(i.action.buttons ? { buttons: i.action.buttons.map((b) => ({ id: b.reply.id, title: b.reply.title })) } : {}),
        ...(i.action.sections ? { sections: i.action.sections } : {}),
        ...(i.action.button ? { buttonText: i.action.button } : {}),
      });
      const outcome = await this.sender.send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, selection: selection(body), content: { type: 'interactive', interactive } });
      ok(res, { ...sendResultView(outcome), interactive_type: interactive.type }, 201);
    });

    router.post('/messages/event', write, async (req, res) => {
      const body = validate<EventBody>(eventSchema, req.body ?? {}, 'BAD_REQUEST');
      const { company, apiKey } = auth(req);
      const event = validateEvent(body.event, this.clock.now());
      const outcome = await this.sender.send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, selection: selection(body), content: { type: 'event', event } });
      ok(res, { ...sendResultView(outcome), event_name: event.name, start_time: event.startTime, end_time: event.endTime ?? null }, 201);
    });

    router.post('/messages/poll', write, async (req, res) => {
      const body = validate<PollBody>(pollSchema, req.body ?? {}, 'BAD_REQUEST');
      const { company, apiKey } = auth(req);
      const poll = validatePoll({ name: body.poll.name, options: body.poll.options, multipleAnswers: body.poll.multipleAnswers ?? false });
      const outcome = await this.sender.send({ companyId: company.id, keyMode: apiKey.mode, phone: body.phone, selection: selection(body), content: { type: 'poll', poll } });
      ok(res, { ...sendResultView(outcome), poll_name: poll.name, options_count: poll.options.length }, 201);
    });

    // :conversa_id is the message_id a send answered with.
    router.patch('/messages/:conversa_id', write, async (req, res) => {
      const body = validate<{ text: string }>(editMessageSchema, req.body ?? {}, 'BAD_REQUEST');
      const message = await this.manage.edit(auth(req).company.id, messageId(req.params.conversa_id), body.text);
      ok(res, messageRecordView(message));
    });

    router.delete('/messages/:conversa_id', write, async (req, res) => {
      const message = await this.manage.delete(auth(req).company.id, messageId(req.params.conversa_id));
      ok(res, messageRecordView(message));
    });

    router.post('/messages/:conversa_id/reaction', write, async (req, res) => {
      const body = validate<{ emoji: string }>(reactionSchema, req.body ?? {}, 'BAD_REQUEST');
      const message = await this.manage.react(auth(req).company.id, messageId(req.params.conversa_id), body.emoji);
      ok(res, { ...messageRecordView(message), removed: message.reaction === null });
    });
  }
}
