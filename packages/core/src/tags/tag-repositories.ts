import type { TagRepository } from './tag-repository.js';
import type { TagRuleRepository } from './tag-rule-repository.js';

/** The tags area's repositories, as a transaction or the read bag carries them (see `Repositories`). */
export interface TagRepositories {
  tags: TagRepository;
  tagRules: TagRuleRepository;
}
