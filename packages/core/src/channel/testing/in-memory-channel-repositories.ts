import type { ChannelRepositories } from '../channel-repositories.js';
import type { InMemoryStore } from '../../shared/testing/in-memory-store.js';
import { InMemoryChannelHealthRepository } from './in-memory-channel-health-repository.js';
import { InMemoryChannelInstanceRepository } from './in-memory-channel-instance-repository.js';
import { InMemoryConversationWindowRepository } from './in-memory-conversation-window-repository.js';

/** The channel area's fakes over one store. */
export function inMemoryChannelRepositories(store: InMemoryStore): ChannelRepositories {
  return {
    channelInstances: new InMemoryChannelInstanceRepository(store),
    channelHealth: new InMemoryChannelHealthRepository(store),
    conversationWindows: new InMemoryConversationWindowRepository(store),
  };
}
