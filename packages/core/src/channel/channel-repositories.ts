import type { ChannelHealthRepository } from './channel-health-repository.js';
import type { ChannelInstanceRepository } from './channel-instance-repository.js';
import type { ConversationWindowRepository } from './conversation-window-repository.js';

/** The channel area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface ChannelRepositories {
  channelInstances: ChannelInstanceRepository;
  channelHealth: ChannelHealthRepository;
  conversationWindows: ConversationWindowRepository;
}
