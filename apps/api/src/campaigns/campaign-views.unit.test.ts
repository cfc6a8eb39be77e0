import { describe, expect, it } from '@jest/globals';
import { campaignDetail, messageDetail, type Campaign } from '@carteiro/core';
import { campaignFixture, messageFixture } from '@carteiro/core/testing';
import {
  campaignDetailView,
  campaignMessageView,
  campaignRecipientView,
  createCampaignCommand,
  resumedView,
  retryCampaignCommand,
  retryResultView,
} from './campaign-views.js';

const at = new Date('2026-01-15T18:00:00.000Z');

describe('createCampaignCommand', () => {
  it('given every field of the body, then the command carries each under its camelCase name', () => {
    expect(
      createCampaignCommand({
        name: 'Promo',
        title: 'T',
        description: 'D',
        setor_id: 's1',
        setor_ids: ['s1', 's2'],
        distribution_mode: 'multi_number',
        multi_number: true,
        team_id: 't1',
        recipients: [{ phone: '+5511987654321', client_id: 'c1', name: 'Ana', text: 'Oi', media_url: 'https://x.test/a.png', media_type: 'image', variables: { a: '1' } }],
        message: {
          text: 'Olá',
          variants: ['Oi'],
          media_url: 'https://x.test/b.png',
          media_type: 'image',
          media_delivery: 'after_text',
          media_filename: 'b.png',
          template_name: 'tpl',
          template_language: 'pt_BR',
          template_components: [{ type: 'body' }],
          template_raw: [{ type: 'header' }],
          template_vars: ['nome'],
        },
        options: { schedule_at: '2026-01-16T13:00:00.000Z', anti_ban_level: 'lento', distribution: 'sequential', callback_url: 'https://x.test/cb' },
      }),
    ).toEqual({
      name: 'Promo',
      title: 'T',
      description: 'D',
      setorId: 's1',
      setorIds: ['s1', 's2'],
      distributionMode: 'multi_number',
      multiNumber: true,
      teamId: 't1',
      recipients: [{ phone: '+5511987654321', clientId: 'c1', name: 'Ana', text: 'Oi', mediaUrl: 'https://x.test/a.png', mediaType: 'image', variables: { a: '1' } }],
      message: {
        text: 'Olá',
        variants: ['Oi'],
        mediaUrl: 'https://x.test/b.png',
        mediaType: 'image',
        mediaDelivery: 'after_text',
        mediaFilename: 'b.png',
        templateName: 'tpl',
        templateLanguage: 'pt_BR',
        templateComponents: [{ type: 'body' }],
        templateRaw: [{ type: 'header' }],
        templateVars: ['nome'],
      },
      scheduledFor: '2026-01-16T13:00:00.000Z',
      antiBanLevel: 'lento',
      distribution: 'sequential',
      callbackUrl: 'https://x.test/cb',
    });
  });

  it('given absent or null parts, then they stay absent or null (the core tells missing from empty)', () => {
    const command = createCampaignCommand({ recipients: null, message: { template_language: null } });
    expect(command.recipients).toBeNull();
    expect(command.name).toBeUndefined();
    expect(command.message?.templateLanguage).toBeNull();
    expect(command.message?.templateName).toBeUndefined();
    expect(createCampaignCommand({}).message).toBeUndefined();
    expect(createCampaignCommand({ options: null }).scheduledFor).toBeUndefined();
  });
});

describe('campaign views', () => {
  const campaign: Campaign = campaignFixture({
    companyId: 'co',
    status: 'processando',
    content: { ...campaignFixture().content, text: null, mediaUrl: 'https://x.test/a.png', mediaType: 'image', templateName: 'tpl', templateLanguage: 'pt_BR' },
    antiBanLevel: 'normal',
    distributionMode: 'multi_number',
    setorIds: ['s1', 's2'],
    executionMode: 'scheduled',
    scheduledFor: at,
    creditsReserved: 4,
    totals: { total: 4, enviados: 1, falhas: 1, pulados: 0 },
    createdAt: at,
    updatedAt: at,
    startedAt: at,
  });

  it('given a campaign, then the detail names its fields as the specification does', () => {
    expect(campaignDetailView(campaignDetail(campaign))).toEqual({
      id: 'c1',
      name: 'Promo',
      mensagem: 'tpl',
      total_destinatarios: 4,
      total_enviados: 1,
      total_falhas: 1,
      total_pulados: 0,
      status: 'processando',
      created_at: at.toISOString(),
      imagem_url: 'https://x.test/a.png',
      progress: 50,
      updated_at: at.toISOString(),
      title: null,
      description: null,
      status_en: 'processing',
      execution_mode: 'scheduled',
      scheduled_for: at.toISOString(),
      waiting_reason: null,
      distribution_mode: 'multi_number',
      distribution: 'interleaved',
      number_pool_size: 2,
      setor_ids: ['s1', 's2'],
      anti_ban_level: 'normal',
      credits_reserved: 4,
      cancelled_by_user: false,
      error: null,
      started_at: at.toISOString(),
      finished_at: null,
    });
  });

  it('given a skipped message, then erro, erro_codigo, erro_legivel, no actual number, and the phone as the name', () => {
    const message = messageFixture({
      companyId: 'co',
      phone: '+5511987654321',
      status: 'pulado',
      setorId: 's2',
      actualSetorId: 's2',
      wasReassigned: true,
      error: 'cancelled_by_user',
      skipReason: 'cancelled_by_user',
      createdAt: at,
      updatedAt: at,
    });
    expect(campaignMessageView(messageDetail(message))).toEqual({
      id: 'm1',
      status: 'pulado',
      erro: 'cancelled_by_user',
      erro_codigo: null,
      erro_legivel: 'Envio cancelado pelo usuário.',
      created_at: at.toISOString(),
      sent_at: null,
      assigned_setor_id: 's1',
      actual_setor_id: null,
      was_reassigned: true,
      clientes: { nome: '+5511987654321', telefone: '+5511987654321' },
    });
    expect(campaignRecipientView(messageDetail(message))).toEqual({
      id: 'm1',
      client_id: null,
      nome: '+5511987654321',
      telefone: '+5511987654321',
      status: 'pulado',
      erro_codigo: null,
      sent_at: null,
    });
  });
});

describe('retry and resume', () => {
  it('given detailIds or all_failures, then the command names them messageIds and allFailures; the answers use the specification names', () => {
    expect(retryCampaignCommand({ detailIds: ['m1'] })).toEqual({ messageIds: ['m1'], allFailures: undefined });
    expect(retryCampaignCommand({ all_failures: true })).toEqual({ messageIds: undefined, allFailures: true });
    expect(retryResultView({ status: 'processando', retried: 1, notRetried: [{ id: 'm2', reason: 'not_failed' }] })).toEqual({
      status: 'processando',
      retried: 1,
      not_retried: [{ id: 'm2', reason: 'not_failed' }],
    });
    expect(resumedView({ status: 'processing', pendingRequeued: 2 })).toEqual({ status: 'processing', pending_requeued: 2 });
  });
});
