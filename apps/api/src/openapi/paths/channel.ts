import { createInstanceSchema, healthQuerySchema, pictureBatchSchema, profileBatchSchema } from '../../channel/channel.schemas.js';
import { type ApiOperation, idParam, pageParams, s } from '../operation.js';

const instanceStatus = s.enum(['disconnected', 'connecting', 'connected']);
const healthState = s.enum(['healthy', 'degraded', 'down', 'unknown']);

export const ChannelInstance = s.object({
  instance_id: s.uuid(),
  setor_id: s.uuid(),
  setor_nome: s.string(),
  channel_type: s.enum(['qr', 'official']),
  status: instanceStatus,
  phone_number: s.nullableString(),
  proxy_configured: s.boolean(),
  profile_name: s.nullableString(),
  profile_picture_url: s.nullableString(),
  connected_at: s.nullableDateTime(),
  disconnected_at: s.nullableDateTime(),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
});

export const ChannelInstanceCreated = s.object({
  instance_id: s.uuid(),
  setor_id: s.uuid(),
  status: instanceStatus,
  phone_number: s.nullableString(),
  proxy_configured: s.boolean(),
  reused: s.boolean({ description: 'True when the box already had an instance.' }),
});

export const ChannelHealthItem = s.object(
  {
    setor_id: s.uuid(),
    setor_nome: s.string(),
    instance_id: s.nullableUuid(),
    phone_number: s.nullableString(),
    health: s.object({
      state: healthState,
      connected: s.boolean(),
      responding: s.boolean(),
      lastCheckedAt: s.nullableDateTime(),
      lastOkAt: s.nullableDateTime(),
      consecutiveFailures: s.integer({ minimum: 0 }),
      error: s.nullableString(),
    }),
    history: s.array(
      s.object({ checkedAt: s.dateTime(), state: healthState, connected: s.boolean(), responding: s.boolean(), error: s.nullableString() }),
      { description: 'With include_history=true: the checks of the last history_minutes.' },
    ),
  },
  { optional: ['history'] },
);

export const ProfileBatchResult = s.object({
  results: s.array(
    s.object({
      setor_id: s.nullableUuid(),
      phone_number: s.nullableString(),
      instance_id: s.nullableUuid(),
      success: s.boolean(),
      profile_name: s.nullableString(),
      profile_picture_url: s.nullableString(),
      error: s.nullableString(),
    }),
  ),
  updated: s.integer({ minimum: 0 }),
  failed: s.integer({ minimum: 0 }),
});

const instanceId = { id: idParam('channel instance') };
const manage = { scope: 'channel:manage' } as const;
const providerErrors = ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'] as const;

/** The /v1/channel/instances routes (channel.controller.ts); bodies the specification leaves open: docs/channel.md. */
export const channelOperations: ApiOperation[] = [
  {
    method: 'post',
    path: '/v1/channel/instances',
    operationId: 'createChannelInstance',
    summary: 'Create a channel instance',
    description: "Creates (or reuses) the instance of a box; it starts 'disconnected'. Then get the QR code and poll the status.",
    tag: 'Channel instances',
    auth: manage,
    body: { schema: createInstanceSchema },
    success: { status: 201, description: 'The instance.', data: s.ref('ChannelInstanceCreated') },
    errors: [...providerErrors],
  },
  {
    method: 'get',
    path: '/v1/channel/instances',
    operationId: 'listChannelInstances',
    summary: 'List channel instances',
    tag: 'Channel instances',
    auth: manage,
    query: { extra: pageParams(100) },
    success: { status: 200, description: 'A page of instances.', data: s.page(s.ref('ChannelInstance')) },
  },
  {
    method: 'get',
    path: '/v1/channel/instances/health',
    operationId: 'getChannelHealth',
    summary: 'Read the health of every number',
    tag: 'Channel instances',
    auth: manage,
    query: { schema: healthQuerySchema },
    success: { status: 200, description: 'One item per box.', data: s.object({ items: s.array(s.ref('ChannelHealthItem')) }) },
  },
  {
    method: 'post',
    path: '/v1/channel/instances/profile/batch',
    operationId: 'updateChannelProfiles',
    summary: 'Update names and photos of up to 20 numbers',
    description: 'Each item names a box (`setor_id`) or a number (`phone_number`) and a `name` and/or `picture_url`; items fail independently.',
    tag: 'Channel instances',
    auth: manage,
    body: { schema: profileBatchSchema },
    success: { status: 200, description: 'Per-item results.', data: s.ref('ProfileBatchResult') },
  },
  {
    method: 'post',
    path: '/v1/channel/instances/profile-picture/batch',
    operationId: 'updateChannelPictures',
    summary: 'Update photos of up to 20 numbers (legacy)',
    description: 'Legacy: prefer profile/batch.',
    tag: 'Channel instances',
    auth: manage,
    body: { schema: pictureBatchSchema },
    success: { status: 200, description: 'Per-item results.', data: s.ref('ProfileBatchResult') },
  },
  {
    method: 'get',
    path: '/v1/channel/instances/:id',
    operationId: 'getChannelInstance',
    summary: 'Read a channel instance',
    tag: 'Channel instances',
    auth: manage,
    pathParams: instanceId,
    success: { status: 200, description: 'The instance.', data: s.ref('ChannelInstance') },
    errors: ['NOT_FOUND'],
  },
  {
    method: 'get',
    path: '/v1/channel/instances/:id/qr',
    operationId: 'getChannelInstanceQr',
    summary: 'Get the QR code',
    description: 'A PNG data URL valid for about 60 seconds; official boxes connect at once (`qr_code` null, `expires_in` 0).',
    tag: 'Channel instances',
    auth: manage,
    pathParams: instanceId,
    success: {
      status: 200,
      description: 'The QR code and the current status.',
      data: s.object({
        instance_id: s.uuid(),
        qr_code: s.nullableString({ description: 'data:image/png;base64,…; null once connected or for official boxes.' }),
        expires_in: s.integer({ minimum: 0, description: 'Seconds.' }),
        status: instanceStatus,
        phone_number: s.nullableString(),
      }),
    },
    errors: [...providerErrors],
  },
  {
    method: 'get',
    path: '/v1/channel/instances/:id/status',
    operationId: 'getChannelInstanceStatus',
    summary: 'Poll the connection status',
    description: 'Poll every 3-5 seconds while scanning.',
    tag: 'Channel instances',
    auth: manage,
    pathParams: instanceId,
    success: { status: 200, description: 'The status.', data: s.object({ instance_id: s.uuid(), status: instanceStatus, phone_number: s.nullableString() }) },
    errors: [...providerErrors],
  },
  {
    method: 'post',
    path: '/v1/channel/instances/:id/disconnect',
    operationId: 'disconnectChannelInstance',
    summary: 'Disconnect a number',
    tag: 'Channel instances',
    auth: manage,
    pathParams: instanceId,
    success: {
      status: 200,
      description: 'Disconnected.',
      data: s.object({ instance_id: s.uuid(), status: instanceStatus, was_connected: s.boolean(), disconnected_at: s.nullableDateTime() }),
    },
    errors: [...providerErrors],
  },
  {
    method: 'post',
    path: '/v1/channel/instances/:id/profile/refresh',
    operationId: 'refreshChannelProfile',
    summary: 'Resync photo and name',
    tag: 'Channel instances',
    auth: manage,
    pathParams: instanceId,
    success: { status: 200, description: 'The instance with its profile.', data: s.ref('ChannelInstance') },
    errors: [...providerErrors],
  },
];

export const channelSchemas = { ChannelInstance, ChannelInstanceCreated, ChannelHealthItem, ProfileBatchResult };
