import type { ChannelInstance } from './channel-instance.js';

/** Stores the channel session of each box (at most one per box). */
export interface ChannelInstanceRepository {
  insert(instance: ChannelInstance): Promise<void>;
  update(instance: ChannelInstance): Promise<void>;
  findByIdInCompany(companyId: string, id: string): Promise<ChannelInstance | null>;
  findBySetor(setorId: string): Promise<ChannelInstance | null>;
  /** The instance of the box, locked until the transaction ends. */
  findBySetorForUpdate(setorId: string): Promise<ChannelInstance | null>;
  listByCompany(companyId: string): Promise<ChannelInstance[]>;
  /** Ids of the company's boxes whose instance is connected, oldest box first. */
  connectedSetorIds(companyId: string): Promise<string[]>;
  /** Every instance of every company (the health job walks them). */
  all(): Promise<ChannelInstance[]>;
}
