import type { ChannelInstance } from './channel-instance.js';

/** Stores the channel session of each setor (at most one per setor). */
export interface ChannelInstanceRepository {
  insert(instance: ChannelInstance): Promise<void>;
  update(instance: ChannelInstance): Promise<void>;
  findByIdInCompany(companyId: string, id: string): Promise<ChannelInstance | null>;
  findBySetor(setorId: string): Promise<ChannelInstance | null>;
  /** The instance of the setor, locked until the transaction ends. */
  findBySetorForUpdate(setorId: string): Promise<ChannelInstance | null>;
  listByCompany(companyId: string): Promise<ChannelInstance[]>;
  /** Ids of the company's setores whose instance is connected, oldest setor first. */
  connectedSetorIds(companyId: string): Promise<string[]>;
  /** Every instance of every company (the health job walks them). */
  all(): Promise<ChannelInstance[]>;
}
