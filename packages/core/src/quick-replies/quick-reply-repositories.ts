import type { QuickReplyRepository } from './quick-reply-repository.js';

/** The quick-replies area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface QuickReplyRepositories {
  quickReplies: QuickReplyRepository;
}
