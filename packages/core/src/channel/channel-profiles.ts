import type { KeyMode } from '../api-keys/index.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, InvalidTransitionError, ValidationError, type ErrorCode } from '../shared/errors.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { ChannelGateway, Profile } from './channel-gateway.js';
import type { ChannelInstance } from './channel-instance.js';
import { conversationPhoneKey } from './conversation-window.js';
import { loadInstanceInCompany } from './load-instance.js';
import type { ChannelRepositories } from './channel-repositories.js';
import type { SetorRepositories } from '../setores/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import { normalizePhone } from '../phone/index.js';

/** At most this many numbers in one profile batch. */
export const PROFILE_BATCH_MAX = 20;

async function storeProfile(uow: UnitOfWork<ChannelRepositories & SetorRepositories>, setorId: string, profile: Profile, now: Date): Promise<ChannelInstance | null> {
  return uow.transaction(async (repos) => {
    const locked = await repos.channelInstances.findBySetorForUpdate(setorId);
    if (!locked) return null;
    const next = { ...locked, profileName: profile.name, profilePictureUrl: profile.pictureUrl, updatedAt: now };
    await repos.channelInstances.update(next);
    return next;
  });
}

/** POST /v1/channel/instances/:id/profile/refresh: reads name and photo from the channel and stores them. */
export class RefreshInstanceProfile {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & SetorRepositories>,
    private readonly repos: Repositories<ChannelRepositories & SetorRepositories>,
    private readonly gateway: ChannelGateway,
    private readonly clock: Clock,
  ) {}

  async execute(input: { companyId: string; instanceId: string; mode: KeyMode }): Promise<ChannelInstance> {
    const { instance, setor } = await loadInstanceInCompany(this.repos, input.companyId, input.instanceId);
    if (instance.status !== 'connected') {
      throw new InvalidTransitionError('channel instance', instance.status, 'refresh the profile of', ['connected']);
    }
    const profile = await this.gateway.fetchProfile({ setor, instance, mode: input.mode });
    return (await storeProfile(this.uow, setor.id, profile, this.clock.now())) ?? instance;
  }
}

/** One number of a profile batch: identified by its setor or its phone number. */
export interface ProfileBatchItem {
  setorId?: string;
  phoneNumber?: string;
  name?: string;
  pictureUrl?: string;
}

export interface ProfileBatchResult {
  setorId: string | null;
  phoneNumber: string | null;
  instanceId: string | null;
  success: boolean;
  profileName: string | null;
  profilePictureUrl: string | null;
  error: { code: ErrorCode; message: string } | null;
}

/**
 * POST /v1/channel/instances/profile/batch (and the legacy profile-picture batch): updates the name
 * and/or photo of up to 20 connected numbers. Each number succeeds or fails on its own.
 */
export class UpdateChannelProfiles {
  constructor(
    private readonly uow: UnitOfWork<ChannelRepositories & SetorRepositories>,
    private readonly repos: Repositories<ChannelRepositories & CompanyRepositories & SetorRepositories>,
    private readonly gateway: ChannelGateway,
    private readonly clock: Clock,
  ) {}

  async execute(input: { companyId: string; mode: KeyMode; items: ProfileBatchItem[] }): Promise<ProfileBatchResult[]> {
    if (input.items.length === 0 || input.items.length > PROFILE_BATCH_MAX) {
      throw new ValidationError(`items must have 1 to ${PROFILE_BATCH_MAX} numbers`, { field: 'items', max: PROFILE_BATCH_MAX });
    }
    input.items.forEach((item, index) => {
      if (!item.setorId === !item.phoneNumber) {
        throw new ValidationError('each item needs exactly one of setor_id or phone_number', { field: `items[${index}]` });
      }
      if (item.name === undefined && item.pictureUrl === undefined) {
        throw new ValidationError('each item needs name and/or picture_url', { field: `items[${index}]` });
      }
    });
    // A number is given as any single send takes it (national numbers in the company's country); a bad one is a 400.
    const company = await this.repos.companies.findById(input.companyId);
    const items = input.items.map((item, index) =>
      item.phoneNumber ? { ...item, phoneNumber: normalizePhone(item.phoneNumber, `items[${index}].phone_number`, company?.defaultCountry) } : item,
    );
    const instances = await this.repos.channelInstances.listByCompany(input.companyId);
    const results: ProfileBatchResult[] = [];
    for (const item of items) results.push(await this.updateOne(input, instances, item));
    return results;
  }

  private async updateOne(
    input: { companyId: string; mode: KeyMode },
    instances: ChannelInstance[],
    item: ProfileBatchItem,
  ): Promise<ProfileBatchResult> {
    const listed = item.setorId
      ? instances.find((i) => i.setorId === item.setorId)
      : instances.find((i) => i.phoneNumber !== null && conversationPhoneKey(i.phoneNumber) === conversationPhoneKey(item.phoneNumber ?? ''));
    // Read again: an earlier item of the same batch may have changed this number's profile.
    const instance = listed ? ((await this.repos.channelInstances.findBySetor(listed.setorId)) ?? listed) : undefined;
    const base = { setorId: instance?.setorId ?? item.setorId ?? null, phoneNumber: instance?.phoneNumber ?? item.phoneNumber ?? null };
    const fail = (code: ErrorCode, message: string): ProfileBatchResult => ({
      ...base,
      instanceId: instance?.id ?? null,
      success: false,
      profileName: instance?.profileName ?? null,
      profilePictureUrl: instance?.profilePictureUrl ?? null,
      error: { code, message },
    });
    if (!instance) return fail('NOT_FOUND', 'No channel instance of the company for this number');
    if (instance.status !== 'connected') return fail('INVALID_TRANSITION', `The instance is ${instance.status}; connect it first`);
    const setor = await this.repos.setores.findByIdInCompany(input.companyId, instance.setorId);
    if (!setor) return fail('NOT_FOUND', 'Box not found');
    try {
      const update = {
        ...(item.name !== undefined ? { name: item.name } : {}),
        ...(item.pictureUrl !== undefined ? { pictureUrl: item.pictureUrl } : {}),
      };
      const profile = await this.gateway.updateProfile({ setor, instance, mode: input.mode }, update);
      const stored = (await storeProfile(this.uow, setor.id, profile, this.clock.now())) ?? instance;
      return {
        ...base,
        instanceId: stored.id,
        success: true,
        profileName: stored.profileName,
        profilePictureUrl: stored.profilePictureUrl,
        error: null,
      };
    } catch (error) {
      if (error instanceof DomainError) return fail(error.code, error.message);
      throw error;
    }
  }
}
