import type { ChannelHealthItem, ChannelInstance, ChannelInstanceView, HealthCheckEntry, ProfileBatchResult, SimulatedMessage } from '@carteiro/core';

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

/** An instance in list and detail responses. */
export function instanceView({ instance, setor }: ChannelInstanceView) {
  return {
    instance_id: instance.id,
    setor_id: instance.setorId,
    setor_nome: setor.nome,
    channel_type: setor.channelType,
    status: instance.status,
    phone_number: instance.phoneNumber,
    proxy_configured: instance.proxyConfigured,
    profile_name: instance.profileName,
    profile_picture_url: instance.profilePictureUrl,
    connected_at: iso(instance.connectedAt),
    disconnected_at: iso(instance.disconnectedAt),
    created_at: iso(instance.createdAt),
    updated_at: iso(instance.updatedAt),
  };
}

/** The specification's creation result. */
export function createdInstanceView(instance: ChannelInstance, reused: boolean) {
  return {
    instance_id: instance.id,
    setor_id: instance.setorId,
    status: instance.status,
    phone_number: instance.phoneNumber,
    proxy_configured: instance.proxyConfigured,
    reused,
  };
}

function historyView(entry: HealthCheckEntry) {
  return {
    checkedAt: iso(entry.checkedAt),
    state: entry.state,
    connected: entry.connected,
    responding: entry.responding,
    error: entry.error,
  };
}

/** The specification's health item (camelCase inside `health`, as the specification names it). */
export function healthItemView(item: ChannelHealthItem) {
  return {
    setor_id: item.setorId,
    setor_nome: item.setorNome,
    instance_id: item.instanceId,
    phone_number: item.phoneNumber,
    health: {
      state: item.health.state,
      connected: item.health.connected,
      responding: item.health.responding,
      lastCheckedAt: iso(item.health.lastCheckedAt),
      lastOkAt: iso(item.health.lastOkAt),
      consecutiveFailures: item.health.consecutiveFailures,
      error: item.health.error,
    },
    ...(item.history ? { history: item.history.map(historyView) } : {}),
  };
}

export function profileResultView(result: ProfileBatchResult) {
  return {
    setor_id: result.setorId,
    phone_number: result.phoneNumber,
    instance_id: result.instanceId,
    success: result.success,
    profile_name: result.profileName,
    profile_picture_url: result.profilePictureUrl,
    error: result.error,
  };
}

/** An item of GET /admin/v1/simulator/messages (operations.md section 3). */
export function simulatedMessageView(message: SimulatedMessage) {
  return {
    id: message.id,
    company_id: message.companyId,
    setor_id: message.setorId,
    from: message.from,
    to: message.to,
    kind: message.kind,
    text: message.text,
    media_url: message.mediaUrl,
    media_type: message.mediaType,
    media_filename: message.mediaFilename,
    template_name: message.templateName,
    payload: message.payload,
    outcome: message.outcome,
    error_code: message.errorCode,
    sent_at: iso(message.sentAt),
  };
}
