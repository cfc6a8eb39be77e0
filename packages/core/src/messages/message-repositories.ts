import type { ConversationRepository } from './conversation-repository.js';
import type { MessageRepository } from './message-repository.js';

/** The messages area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface MessageRepositories {
  conversations: ConversationRepository;
  messages: MessageRepository;
}
