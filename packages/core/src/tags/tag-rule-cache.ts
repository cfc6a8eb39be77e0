import type { Clock } from '../shared/clock.js';
import type { TagRule } from './tag-rule.js';
import type { TagRuleRepository } from './tag-rule-repository.js';

/**
 * How long the enabled rules read for a company are used by inbound messages without being read again. A change made
 * through this process (`ManageTagRules`, a tag's deletion through `ManageTags`) is seen by the next inbound message;
 * one made through another process is seen at most this long after its commit (docs/tags.md).
 */
export const TAG_RULE_CACHE_MAX_AGE_MS = 1_000;
/** Companies whose rules are kept at once (the oldest read goes first). */
export const TAG_RULE_CACHE_MAX_COMPANIES = 10_000;

interface Entry {
  rules: Promise<TagRule[]>;
  /** When the read started (clock milliseconds). */
  at: number;
}

/**
 * The enabled tag rules of each company, kept between inbound messages (issue 12's throughput target: a group of
 * inbound messages read them once per group, then not even that). The same list object is answered while it is kept,
 * so that `matchingRules` compiles its plan (regexes, unions) once per read instead of once per group.
 *
 * Bounded staleness: an entry is read again when older than `maxAgeMs`, and dropped at once by {@link invalidate}
 * (called by the rule and tag writes of this process after they commit; a read in flight is dropped with its entry, so
 * a rule written here is never hidden by an older read). A failed read is not kept.
 */
export class TagRuleCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    readonly maxAgeMs: number = TAG_RULE_CACHE_MAX_AGE_MS,
    private readonly maxCompanies: number = TAG_RULE_CACHE_MAX_COMPANIES,
  ) {}

  /** The company's enabled rules, from the cache or read through `repository` (the caller's transaction). */
  listEnabled(repository: TagRuleRepository, companyId: string): Promise<TagRule[]> {
    const now = this.clock.now().getTime();
    const entry = this.entries.get(companyId);
    if (entry && now - entry.at < this.maxAgeMs && now >= entry.at) return entry.rules;
    const rules = repository.listEnabled(companyId);
    const fresh: Entry = { rules, at: now };
    if (entry) this.entries.delete(companyId);
    this.entries.set(companyId, fresh);
    if (this.entries.size > this.maxCompanies) this.entries.delete(this.entries.keys().next().value!);
    rules.catch(() => {
      if (this.entries.get(companyId) === fresh) this.entries.delete(companyId);
    });
    return rules;
  }

  /** The company's rules changed (after the commit): the next inbound message reads them again. */
  invalidate(companyId: string): void {
    this.entries.delete(companyId);
  }

  /** Companies kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
