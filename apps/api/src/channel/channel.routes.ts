import {
  ChannelSimulatorStore,
  CreateChannelInstance,
  DisconnectChannelInstance,
  ErrorCodes,
  GetChannelHealth,
  GetInstanceStatus,
  HEALTH_HISTORY_MAX_MINUTES,
  ListChannelInstances,
  PROFILE_BATCH_MAX,
  RefreshInstanceProfile,
  Repositories,
  RequestInstanceQr,
  UpdateChannelProfiles,
  loadInstanceInCompany,
  type ProfileBatchResult as ProfileResult,
} from '@carteiro/core';
import type { ServiceRepositories } from '@carteiro/postgres';
import { defineRoute, idParam } from '../http/route.js';
import { pageOfCompany } from '../shared/page-of-company.js';
import { getById } from '../shared/get-by-id.js';
import { component, pageQuery, s, typed, type TypedSchema } from '../http/schema.js';
import { createdInstanceView, healthItemView, instanceView, profileResultView, simulatedMessageView } from './channel-views.js';

// ---- Request schemas -------------------------------------------------------------------------

const uuid = { type: 'string', format: 'uuid' };
const httpsUrl = { type: 'string', minLength: 9, maxLength: 2048, format: 'uri', pattern: '^https://', description: 'A public https URL of the image.' };
const phone = { type: 'string', minLength: 8, maxLength: 32, pattern: '^[+0-9 ()-]+$' };

/** POST /v1/channel/instances. */
export const createInstanceSchema = typed<{ setor_id: string }>({
  type: 'object',
  required: ['setor_id'],
  additionalProperties: false,
  properties: { setor_id: uuid },
});

/** GET /v1/channel/instances/health. */
export const healthQuerySchema = typed<{ include_history?: 'true' | 'false' | '1' | '0'; history_minutes?: number }>({
  type: 'object',
  additionalProperties: false,
  properties: {
    include_history: { type: 'string', enum: ['true', 'false', '1', '0'], description: 'Add the checks of the last `history_minutes` to each item.' },
    history_minutes: {
      type: 'integer',
      minimum: 1,
      maximum: HEALTH_HISTORY_MAX_MINUTES,
      default: 60,
      description: `How far back the history goes (with include_history), 1 to ${HEALTH_HISTORY_MAX_MINUTES} minutes.`,
    },
  },
});

const target = { setor_id: uuid, phone_number: phone };

export interface ProfileBatchBody {
  items: { setor_id?: string; phone_number?: string; name?: string; picture_url?: string }[];
}

/** A body of 1 to PROFILE_BATCH_MAX `items`, each a number (by setor or phone) and what to change on it. */
const profileItems = (item: Record<string, unknown>) =>
  typed<ProfileBatchBody>({
    type: 'object',
    required: ['items'],
    additionalProperties: false,
    properties: { items: { type: 'array', minItems: 1, maxItems: PROFILE_BATCH_MAX, items: item } },
  });
const oneNumber = [{ required: ['setor_id'] }, { required: ['phone_number'] }];

/** A batch route (both take the same items): each item's number (by box or phone) gets its name and/or photo; items fail independently. */
function profileBatchRoute(route: { path: string; operationId: string; summary: string; description: string; schema: TypedSchema<ProfileBatchBody> }) {
  const { schema, ...texts } = route;
  return defineRoute({
    ...texts,
    method: 'post',
    auth: manage,
    tag: 'Channel instances',
    body: { schema },
    response: { status: 200, description: 'Per-item results.', data: ProfileBatchResult },
    async handler({ body, principal, use }) {
      const results = await use(UpdateChannelProfiles).execute({
        companyId: principal.company.id,
        mode: principal.apiKey.mode,
        items: body.items.map((i) => ({ setorId: i.setor_id?.toLowerCase(), phoneNumber: i.phone_number, name: i.name, pictureUrl: i.picture_url })),
      });
      return batchView(results);
    },
  });
}

/** POST /v1/channel/instances/profile/batch: up to 20 numbers, each by setor or phone, with name and/or photo. */
export const profileBatchSchema = profileItems({
  type: 'object',
  additionalProperties: false,
  properties: { ...target, name: { type: 'string', minLength: 1, maxLength: 25 }, picture_url: httpsUrl },
  oneOf: oneNumber,
  anyOf: [{ required: ['name'] }, { required: ['picture_url'] }],
});

/** POST /v1/channel/instances/profile-picture/batch (legacy): photos only. */
export const pictureBatchSchema = profileItems({
  type: 'object',
  additionalProperties: false,
  required: ['picture_url'],
  properties: { ...target, picture_url: httpsUrl },
  oneOf: oneNumber,
});

const SIMULATOR_MAX_LIMIT = 500;

/** GET /admin/v1/simulator/messages. */
export const simulatorMessagesQuerySchema = typed<{ to?: string; setor_id?: string; company_id?: string; limit: number }>({
  type: 'object',
  additionalProperties: false,
  properties: {
    to: { ...phone, description: 'Only messages to this number.' },
    setor_id: { ...uuid, description: 'Only messages of this box.' },
    company_id: { ...uuid, description: 'Only messages of this company.' },
    limit: { type: 'integer', minimum: 1, maximum: SIMULATOR_MAX_LIMIT, default: 50, description: `How many, newest first (1 to ${SIMULATOR_MAX_LIMIT}).` },
  },
});

// ---- Response schemas ------------------------------------------------------------------------

const instanceStatus = s.enum(['disconnected', 'connecting', 'connected']);
const healthState = s.enum(['healthy', 'degraded', 'down', 'unknown']);

const ChannelInstance = component(
  'ChannelInstance',
  s.object({
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
  }),
);

const ChannelInstanceCreated = component(
  'ChannelInstanceCreated',
  s.object({
    instance_id: s.uuid(),
    setor_id: s.uuid(),
    status: instanceStatus,
    phone_number: s.nullableString(),
    proxy_configured: s.boolean(),
    reused: s.boolean({ description: 'True when the box already had an instance.' }),
  }),
);

const ChannelHealthItem = component(
  'ChannelHealthItem',
  s.object(
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
  ),
);

const ProfileBatchResult = component(
  'ProfileBatchResult',
  s.object({
    results: s.array(
      s.object({
        setor_id: s.nullableUuid(),
        phone_number: s.nullableString(),
        instance_id: s.nullableUuid(),
        success: s.boolean(),
        profile_name: s.nullableString(),
        profile_picture_url: s.nullableString(),
        error: {
          type: ['object', 'null'],
          required: ['code', 'message'],
          properties: { code: s.enum(ErrorCodes), message: s.string() },
          description: 'Why this item failed; null when it succeeded.',
        },
      }),
    ),
    updated: s.integer({ minimum: 0 }),
    failed: s.integer({ minimum: 0 }),
  }),
);

const SimulatedMessage = component(
  'SimulatedMessage',
  s.object({
    id: s.uuid(),
    company_id: s.uuid(),
    setor_id: s.uuid(),
    from: s.nullableString(),
    to: s.string(),
    kind: s.enum(['text', 'image', 'video', 'audio', 'document', 'template', 'interactive', 'poll', 'event']),
    text: s.nullableString(),
    media_url: s.nullableString(),
    media_type: s.nullableString(),
    media_filename: s.nullableString(),
    template_name: s.nullableString(),
    payload: { type: 'object', additionalProperties: true, description: 'What the channel was asked to send, by kind.' },
    outcome: s.string({ description: "'sent' or 'failed'." }),
    error_code: s.nullableString(),
    sent_at: s.dateTime(),
  }),
);

// ---- Routes ----------------------------------------------------------------------------------

function batchView(results: ProfileResult[]) {
  const updated = results.filter((r) => r.success).length;
  return { results: results.map(profileResultView), updated, failed: results.length - updated };
}

const instanceId = { id: idParam('channel instance', 'Channel instance') };
const manage = { scope: 'channel:manage' } as const;
const providerErrors = ['NOT_FOUND', 'CONFLICT', 'UNPROCESSABLE', 'PROVIDER_ERROR', 'SERVICE_UNAVAILABLE'] as const;

/** The `/v1/channel/instances` routes (scope channel:manage) and the simulator's outbox. Bodies the specification leaves open: docs/channel.md. */
export const channelRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/channel/instances',
    auth: manage,
    operationId: 'createChannelInstance',
    summary: 'Create a channel instance',
    description: "Creates (or reuses) the instance of a box; it starts 'disconnected'. Then get the QR code and poll the status.",
    tag: 'Channel instances',
    body: { schema: createInstanceSchema },
    response: { status: 201, description: 'The instance.', data: ChannelInstanceCreated },
    errors: providerErrors,
    async handler({ body, principal, use }) {
      const { instance, reused } = await use(CreateChannelInstance).execute({ companyId: principal.company.id, setorId: body.setor_id.toLowerCase() });
      return createdInstanceView(instance, reused);
    },
  }),
  pageOfCompany({
    path: '/v1/channel/instances',
    auth: manage,
    operationId: 'listChannelInstances',
    summary: 'List channel instances',
    tag: 'Channel instances',
    query: pageQuery(100),
    response: { description: 'A page of instances.', item: ChannelInstance },
    list: (use, companyId, query) => use(ListChannelInstances).execute({ companyId: companyId, page: query }),
    view: instanceView,
  }),
  // Before the `:id` routes: "health" is not an instance id.
  defineRoute({
    method: 'get',
    path: '/v1/channel/instances/health',
    auth: manage,
    operationId: 'getChannelHealth',
    summary: 'Read the health of every number',
    tag: 'Channel instances',
    query: healthQuerySchema,
    response: { status: 200, description: 'One item per box.', data: s.object({ items: s.array(ChannelHealthItem) }) },
    async handler({ query, principal, use }) {
      const items = await use(GetChannelHealth).execute({
        companyId: principal.company.id,
        includeHistory: query.include_history === 'true' || query.include_history === '1',
        historyMinutes: query.history_minutes,
      });
      return { items: items.map(healthItemView) };
    },
  }),
  profileBatchRoute({
    path: '/v1/channel/instances/profile/batch',
    operationId: 'updateChannelProfiles',
    summary: `Update names and photos of up to ${PROFILE_BATCH_MAX} numbers`,
    description: 'Each item names a box (`setor_id`) or a number (`phone_number`) and a `name` and/or `picture_url`; items fail independently.',
    schema: profileBatchSchema,
  }),
  profileBatchRoute({
    path: '/v1/channel/instances/profile-picture/batch',
    operationId: 'updateChannelPictures',
    summary: `Update photos of up to ${PROFILE_BATCH_MAX} numbers (legacy)`,
    description: 'Legacy: prefer profile/batch.',
    schema: pictureBatchSchema,
  }),
  getById({
    path: '/v1/channel/instances/:id', auth: manage, params: instanceId,
    operationId: 'getChannelInstance', summary: 'Read a channel instance', tag: 'Channel instances',
    response: { description: 'The instance.', data: ChannelInstance },
    read: async (use, companyId, id) => instanceView(await loadInstanceInCompany(use<ServiceRepositories>(Repositories), companyId, id)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/channel/instances/:id/qr',
    auth: manage,
    operationId: 'getChannelInstanceQr',
    summary: 'Get the QR code',
    description: 'A PNG data URL valid for about 60 seconds; official boxes connect at once (`qr_code` null, `expires_in` 0).',
    tag: 'Channel instances',
    params: instanceId,
    response: {
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
    errors: providerErrors,
    async handler({ params, principal, use }) {
      const result = await use(RequestInstanceQr).execute({ companyId: principal.company.id, instanceId: params.id, mode: principal.apiKey.mode });
      return {
        instance_id: result.instanceId,
        qr_code: result.qrCode,
        expires_in: result.expiresInSeconds,
        status: result.status,
        phone_number: result.phoneNumber,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/channel/instances/:id/status',
    auth: manage,
    operationId: 'getChannelInstanceStatus',
    summary: 'Poll the connection status',
    description: 'Poll every 3-5 seconds while scanning.',
    tag: 'Channel instances',
    params: instanceId,
    response: { status: 200, description: 'The status.', data: s.object({ instance_id: s.uuid(), status: instanceStatus, phone_number: s.nullableString() }) },
    errors: providerErrors,
    async handler({ params, principal, use }) {
      const instance = await use(GetInstanceStatus).execute({ companyId: principal.company.id, instanceId: params.id, mode: principal.apiKey.mode });
      return { instance_id: instance.id, status: instance.status, phone_number: instance.phoneNumber };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/channel/instances/:id/disconnect',
    auth: manage,
    operationId: 'disconnectChannelInstance',
    summary: 'Disconnect a number',
    tag: 'Channel instances',
    params: instanceId,
    response: {
      status: 200,
      description: 'Disconnected.',
      data: s.object({ instance_id: s.uuid(), status: instanceStatus, was_connected: s.boolean(), disconnected_at: s.nullableDateTime() }),
    },
    errors: providerErrors,
    async handler({ params, principal, use }) {
      const result = await use(DisconnectChannelInstance).execute({ companyId: principal.company.id, instanceId: params.id, mode: principal.apiKey.mode });
      return {
        instance_id: result.instance.id,
        status: result.instance.status,
        was_connected: result.wasConnected,
        disconnected_at: result.instance.disconnectedAt ? new Date(result.instance.disconnectedAt).toISOString() : null,
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/channel/instances/:id/profile/refresh',
    auth: manage,
    operationId: 'refreshChannelProfile',
    summary: 'Resync photo and name',
    tag: 'Channel instances',
    params: instanceId,
    response: { status: 200, description: 'The instance with its profile.', data: ChannelInstance },
    errors: providerErrors,
    async handler({ params, principal, use }) {
      const companyId = principal.company.id;
      const instance = await use(RefreshInstanceProfile).execute({ companyId, instanceId: params.id, mode: principal.apiKey.mode });
      return instanceView(await loadInstanceInCompany(use<ServiceRepositories>(Repositories), companyId, instance.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/admin/v1/simulator/messages',
    auth: 'admin',
    operationId: 'adminListSimulatedMessages',
    summary: 'Read what the simulator sent',
    description: `Newest first; \`limit\` 1-${SIMULATOR_MAX_LIMIT} (default 50). One item per channel message (operations.md §3).`,
    tag: 'Simulator',
    query: simulatorMessagesQuerySchema,
    response: {
      status: 200,
      description: 'The simulator outbox.',
      data: s.object({ items: s.array(SimulatedMessage), limit: s.integer({ minimum: 1, maximum: SIMULATOR_MAX_LIMIT }) }),
    },
    async handler({ query, use }) {
      const items = await use<ChannelSimulatorStore>(ChannelSimulatorStore).listMessages({
        to: query.to,
        setorId: query.setor_id?.toLowerCase(),
        companyId: query.company_id?.toLowerCase(),
        limit: query.limit,
      });
      return { items: items.map(simulatedMessageView), limit: query.limit };
    },
  }),
];
