import { CONVERSATION_WINDOW_MS, MediaTypes, type MediaType } from '../channel/index.js';
import { systemActor, type DomainEvent } from '../shared/domain-event.js';
import { normalizePhone, phoneMatchKey } from '../phone/index.js';
import type { Clock } from '../shared/clock.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { newConversation, type Conversation } from './conversation.js';
import type { InboundContactCandidate, InboundContactRecorded } from './conversation-repository.js';
import type { MessageRecord } from './message.js';
import { MAX_TEXT_LENGTH, type MessageContent } from './message-content.js';
import type { ChannelRepositories } from '../channel/index.js';
import { assistantActive, createContact, type Contact, type ContactRepositories } from '../contacts/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { MessageRepositories } from './message-repositories.js';
import type { Setor, SetorRepositories } from '../setores/index.js';
import { runInboundTagRules, type TagRepositories, type TagRepository, type TagRuleCache, type TagRuleRepository } from '../tags/index.js';

/** The longest push name kept as a contact's name. */
export const MAX_INBOUND_NAME_LENGTH = 100;
/** The longest provider message id accepted. */
export const MAX_PROVIDER_MESSAGE_ID_LENGTH = 256;
/** The longest option id accepted (`csat_5`, a button or list row id). */
export const MAX_OPTION_ID_LENGTH = 256;

/**
 * A message from a contact to a setor: the simulator's POST /admin/v1/simulator/inbound or a
 * provider's webhook (the QR provider's `messages.upsert`, the Cloud API's `messages`). At least
 * one of `text`, `mediaUrl` and `optionId` is given.
 */
export interface InboundMessageInput {
  setorId: string;
  /** The contact's number, in any accepted form. */
  from: string;
  /** The text, the media's caption, or the chosen option's title. */
  text?: string | null;
  /** The contact's push name: fills an empty contact name. */
  name?: string | null;
  mediaUrl?: string | null;
  mediaType?: MediaType | null;
  /** The id of the chosen option of an interactive list or buttons (e.g. `csat_5`). */
  optionId?: string | null;
  /** The provider's id of the message: a repeat of one already received on the setor is ignored. */
  providerMessageId?: string | null;
}

/** What an inbound message did to the ticket of its contact on the setor. */
export interface InboundTicketSummary {
  id: string;
  number: number;
  status: string;
  /** A new ticket was opened for it. */
  created: boolean;
  /** A closed ticket (within the setor's reopen window) was reopened for it. */
  reopened: boolean;
}

export interface InboundMessageResult {
  messageId: string;
  companyId: string;
  setorId: string;
  /** E.164. */
  from: string;
  contactId: string;
  contactCreated: boolean;
  conversationId: string;
  conversationCreated: boolean;
  receivedAt: Date;
  /** Until when an official setor may send free text to the contact. */
  windowOpenUntil: Date;
  /** Tags the company's rules put on the contact or on the ticket for this message. */
  tagsAdded: string[];
  /** The ticket the message joined (null without the tickets area, or for a repeat). */
  ticket: InboundTicketSummary | null;
  /** The message was a rating reply, recorded on its closed ticket (no ticket was joined or opened). */
  ratingRecorded: boolean;
  /** The provider id was received before: nothing was done (`messageId` is the first one's). */
  duplicate: boolean;
}

/** Reacts to a received text after it is recorded (in its own transaction). */
export interface InboundMessageListener {
  onInbound(result: InboundMessageResult, text: string): Promise<void>;
}
export const InboundMessageListener = Symbol.for('carteiro.InboundMessageListener');

/** What the threads (tickets) area gets of an inbound message, inside its transaction. */
export interface InboundThreadMessage {
  companyId: string;
  setor: Setor;
  contact: Contact;
  conversationId: string;
  messageId: string;
  /** The text rules and rating replies read (text, caption or option title); null for a bare media. */
  text: string | null;
  optionId: string | null;
  /** The start of the text, or the media type, as ticket lists show it. */
  preview: string | null;
  at: Date;
  /** The contact was created by this transaction (so it has no ticket yet). */
  contactCreated?: boolean;
  /**
   * In an inbound group: a ticket opened for a contact the transaction created may be left for `insertOpened` (the
   * join answers it `deferred`, numbered 0 until then).
   */
  deferOpen?: boolean;
  /**
   * In an inbound group, for a contact stored before it: the contact's active ticket as the group knows it (read with
   * `findActiveAll`, or as an earlier message of the group left it; null: none). Absent: `join` reads it.
   */
  active?: unknown;
  /** With `active`: a joined ticket is left for `saveJoined` at the end of the group (answered in `pendingSave`). */
  deferSave?: boolean;
}

/** The key of a setor and contact in `InboundThreads.findActiveAll`'s answer. */
export const inboundThreadKey = (setorId: string, contactId: string) => `${setorId}|${contactId}`;

/** A rating reply recorded on a closed ticket. */
export interface InboundRatingOutcome {
  ticketId: string;
  ticketNumber: number;
  /** False when it repeated the stored rating (nothing changed). */
  changed: boolean;
  events: DomainEvent[];
}

/** The ticket an inbound message joined, reopened or opened. */
export interface InboundJoinOutcome {
  ticket: InboundTicketSummary;
  events: DomainEvent[];
  /** The ticket may get an agent by auto-assignment (`assign` is called); absent means true when created or reopened. */
  needsAssignment?: boolean;
  /** The threads area's own state of the ticket, handed back to `assign` (opaque here). */
  state?: unknown;
  /** Opened but not inserted yet (`deferOpen`): `insertOpened` inserts it and gives it its number. */
  deferred?: boolean;
  /** Joined but not saved yet (`deferSave`): `saveJoined` writes `state` where the stored version is `expectedVersion`. */
  pendingSave?: { id: string; state: unknown; expectedVersion: number };
}

/**
 * The conversation threads (tickets) inbound messages join. The messages area declares it and the
 * tickets area implements it (`TicketInboundThreads`), so that receiving does not depend on tickets.
 * Every method runs inside the inbound transaction; `repos` holds every area at run time.
 */
export interface InboundThreads {
  /** Serialises inbound handling of one contact (`phoneKey`, ninth-digit aware) on one setor until the transaction ends. */
  lock(repos: Repositories, setorId: string, phoneKey: string): Promise<void>;
  /** The key `lock` takes (`SetorRepository.findByIdLocking` takes it with the setor's read, saving a round trip). */
  lockKey?(setorId: string, phoneKey: string): string;
  /**
   * `lock` for every contact of a group of messages handled in one transaction, in one round trip and in a fixed
   * order of the keys (no two groups wait for each other in a cycle). Without it messages are not grouped.
   */
  lockAll?(repos: Repositories, threads: readonly { setorId: string; phoneKey: string }[]): Promise<void>;
  /** Step 3: a rating reply, recorded on the closed ticket it answers; null when the message is not one. */
  ratingReply(repos: Repositories, message: InboundThreadMessage): Promise<InboundRatingOutcome | null>;
  /** Step 4: join the active ticket (a snoozed one opens), reopen one closed within the reopen window, or open one. */
  join(repos: Repositories, message: InboundThreadMessage, contactAssistantActive: boolean): Promise<InboundJoinOutcome>;
  /**
   * After step 4's events are recorded: team auto-assignment of a ticket the message opened or reopened
   * (records `conversation.assigned` itself when it assigns).
   */
  assign(repos: Repositories, companyId: string, ticketId: string, at: Date, state?: unknown): Promise<void>;
  /** Step 5, conversation-scope rules: links the tags to the ticket; answers those newly linked. */
  tag(repos: Repositories, companyId: string, ticketId: string, tagIds: readonly string[], at: Date): Promise<string[]>;
  /**
   * Inserts the tickets joins left `deferred`, in one write per company, numbered in the order given; sets the number in
   * their state and in their events, and answers the numbers in order.
   */
  insertOpened?(repos: Repositories, opened: readonly { state: unknown; events: readonly DomainEvent[] }[]): Promise<number[]>;
  /**
   * The active tickets of an inbound group's stored contacts in one read, by {@link inboundThreadKey} (opaque states
   * handed back to `join` as `InboundThreadMessage.active`). Without it (or `saveJoined`) each join reads and saves its own.
   */
  findActiveAll?(repos: Repositories, pairs: readonly { setorId: string; contactId: string }[]): Promise<Map<string, unknown>>;
  /** Saves the tickets joins left `pendingSave`, in one write; throws when one changed meanwhile (the group runs again alone). */
  saveJoined?(repos: Repositories, saves: readonly { state: unknown; expectedVersion: number }[]): Promise<void>;
  /** `tag` for several tickets the transaction opened, in one write (an inbound group); without it they are tagged one by one. */
  linkTags?(repos: Repositories, companyId: string, links: readonly { ticketId: string; tagId: string }[], at: Date): Promise<void>;
}
export const InboundThreads = Symbol.for('carteiro.InboundThreads');

type InboundAreas = ChannelRepositories & CompanyRepositories & ContactRepositories & MessageRepositories & SetorRepositories & TagRepositories;

/**
 * Group commit of inbound messages: messages that arrive while earlier ones are being written wait, and are then
 * handled together in one transaction (a provider's burst costs one `begin`/`commit`, one lock statement and one read
 * of the setor and of the tag rules, instead of one each per message).
 */
export interface InboundBatching {
  /** The most messages in one transaction (1: every message alone). */
  maxBatch: number;
  /** The most group transactions of this process in flight at once. */
  concurrency: number;
  /**
   * Pipelined groups. When a group ends and fewer messages wait than half of those of the cycle (the waiting ones and the
   * group's), the next group waits for the group's senders to write again — until half the cycle waits, or `holdMs` at
   * most (`sleep`). Under a steady load two groups of about half the senders then alternate: while one is written, the
   * process answers the other's senders and reads their next messages, so that the service's work and PostgreSQL's
   * overlap on two cores. Without it the first message back after a group starts a transaction alone and the others wait
   * for it in one big group, and the service and PostgreSQL take turns (the benchmark's 16 senders: 1 then 15, one core
   * busy of two).
   */
  pipelined?: { holdMs: number; sleep(ms: number): Promise<void> };
}
/**
 * One group transaction at a time per process: the messages that arrive meanwhile make the next group bigger, which
 * costs fewer statements a message than two smaller groups in parallel (benchmark on 2 cores, 16 in flight: 1.4 against
 * 2.3 statements and about 3.0 against 3.8 ms of CPU a message); processes still run in parallel.
 */
export const DEFAULT_INBOUND_BATCHING: InboundBatching = { maxBatch: 32, concurrency: 1 };

/** A message waiting for its group's transaction. */
interface QueuedInbound {
  input: InboundMessageInput;
  checked: CheckedInput;
  /** E.164, from a number given with its country code. */
  from: string;
  resolve(result: InboundMessageResult): void;
  reject(error: unknown): void;
}

/** What the messages of a group share: the provider ids looked up at once, the messages and events waiting for their insert. */
interface GroupContext {
  pending: PendingInbound;
  /** By {@link providerKey}: the stored message, or null when none was (a key absent here was not looked up). */
  lookedUp: Map<string, MessageRecord | null>;
  /** Contacts and tickets the group created: their tag links wait for the end of the group. */
  createdContacts: Set<string>;
  createdTickets: Set<string>;
  /** Tag links waiting, by contact or ticket id (with the ticket's company). */
  contactLinks: Map<string, { companyId: string | null; tagIds: Set<string> }>;
  ticketLinks: Map<string, { companyId: string | null; tagIds: Set<string> }>;
  /** When the last waiting link was made (their `created_at`). */
  linkedAt: Date | null;
  /** Tickets opened for contacts the group created, waiting for their insert (`InboundThreads.insertOpened`). */
  opened: { state: unknown; events: readonly DomainEvent[]; summary: InboundTicketSummary }[];
  /**
   * The active ticket of each stored contact of the group, by {@link inboundThreadKey}, as the group knows it (read at
   * once, then as each message left it; null: none). A contact absent here has its ticket read by `join`.
   */
  active: Map<string, unknown>;
  /** Joined tickets waiting for their save (`InboundThreads.saveJoined`), by id: the latest state, the version stored. */
  saves: Map<string, { state: unknown; expectedVersion: number }>;
}

/** Saves the tickets the group joined so far (one write). */
async function flushSaves(repos: Repositories, threads: InboundThreads, group: GroupContext): Promise<void> {
  if (group.saves.size === 0) return;
  const saves = [...group.saves.values()];
  group.saves.clear();
  await threads.saveJoined!(repos, saves);
}

/** Inserts the tickets the group opened so far and gives their answers their numbers. */
async function flushOpened(repos: Repositories, threads: InboundThreads, group: GroupContext): Promise<void> {
  if (group.opened.length === 0) return;
  const opened = group.opened.splice(0);
  const numbers = await threads.insertOpened!(repos, opened);
  opened.forEach((o, i) => {
    o.summary.number = numbers[i]!;
  });
}

/** Links `tagIds` to `ownerId` at the end of the group; answers those it had not linked yet (all new: the owner is new). */
function deferLinks(
  group: GroupContext,
  links: GroupContext['contactLinks'],
  ownerId: string,
  companyId: string | null,
  tagIds: readonly string[],
  at: Date,
): string[] {
  let waiting = links.get(ownerId);
  if (!waiting) links.set(ownerId, (waiting = { companyId, tagIds: new Set() }));
  const added = [...new Set(tagIds)].filter((tagId) => !waiting.tagIds.has(tagId));
  for (const tagId of added) waiting.tagIds.add(tagId);
  group.linkedAt = at;
  return added;
}

async function flushLinks(repos: Repositories<TagRepositories>, threads: InboundThreads, group: GroupContext): Promise<void> {
  const at = group.linkedAt;
  if (at === null) return;
  const contactLinks = [...group.contactLinks].flatMap(([contactId, { tagIds }]) => [...tagIds].map((tagId) => ({ contactId, tagId })));
  if (contactLinks.length > 0) await repos.tags.linkContactTags(contactLinks, at);
  const byCompany = new Map<string, { ticketId: string; tagId: string }[]>();
  for (const [ticketId, { companyId, tagIds }] of group.ticketLinks) {
    const list = byCompany.get(companyId!) ?? [];
    for (const tagId of tagIds) list.push({ ticketId, tagId });
    byCompany.set(companyId!, list);
  }
  for (const [companyId, links] of byCompany) await threads.linkTags!(repos, companyId, links, at);
}

/** The contact and conversation a group recorded for a message before handling it. */
interface Prefetched extends InboundContactRecorded {
  /** The id the conversation would have had if created (it was when the answer's id is this one). */
  candidateId: string;
}

const providerKey = (setorId: string, providerMessageId: string) => `${setorId}\u0000${providerMessageId}`;

/** Messages of a group and their events, written together (in order) by {@link flushPending}. */
interface PendingInbound {
  messages: MessageRecord[];
  events: DomainEvent[];
}

async function flushPending(repos: Repositories<MessageRepositories>, group: GroupContext): Promise<void> {
  const { pending } = group;
  if (pending.messages.length === 0 && pending.events.length === 0) return;
  const messages = pending.messages.splice(0);
  await repos.messages.insertAllWithEvents(messages, pending.events.splice(0));
  // Stored now: a later repeat of one of their provider ids finds it here.
  for (const m of messages) if (m.providerMessageId !== null) group.lookedUp.set(providerKey(m.setorId, m.providerMessageId), m);
}

/** The number in E.164 when it was given with its country code (as providers send it); null otherwise, or when it is invalid. */
function internationalNumber(from: unknown): string | null {
  if (typeof from !== 'string' || !from.trim().startsWith('+')) return null;
  try {
    return normalizePhone(from, 'from', undefined);
  } catch {
    return null;
  }
}

/** Checked and trimmed input. */
interface CheckedInput {
  text: string | null;
  name: string | null;
  mediaUrl: string | null;
  mediaType: MediaType | null;
  optionId: string | null;
  providerMessageId: string | null;
}

function check(input: InboundMessageInput): CheckedInput {
  const optional = (value: unknown, field: string, max: number): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') throw new ValidationError(`${field} must be a string`, { field });
    if (value.length > max) throw new ValidationError(`${field} is longer than ${max} characters`, { field, max });
    return value.trim() === '' ? null : value;
  };
  const text = optional(input.text, 'text', MAX_TEXT_LENGTH);
  const mediaUrl = optional(input.mediaUrl, 'media_url', 2048);
  const optionId = optional(input.optionId, 'option_id', MAX_OPTION_ID_LENGTH);
  const name = optional(input.name, 'name', 1000)?.trim().slice(0, MAX_INBOUND_NAME_LENGTH) ?? null;
  const providerMessageId = optional(input.providerMessageId, 'provider_message_id', MAX_PROVIDER_MESSAGE_ID_LENGTH);
  let mediaType: MediaType | null = null;
  if (mediaUrl !== null) {
    const given = input.mediaType ?? 'image';
    if (!(MediaTypes as readonly string[]).includes(given)) {
      throw new ValidationError(`media_type must be one of ${MediaTypes.join(', ')}`, { field: 'media_type', allowed: MediaTypes });
    }
    mediaType = given;
  } else if (input.mediaType != null) {
    throw new ValidationError('media_type needs media_url', { field: 'media_url' });
  }
  if (text === null && mediaUrl === null && optionId === null) throw new ValidationError('text is required (or media_url, or option_id)', { field: 'text' });
  return { text, name, mediaUrl, mediaType, optionId, providerMessageId };
}

/** The stored content of an inbound message: text, media (with its caption) or a chosen option. */
function inboundContent(input: CheckedInput): MessageContent {
  if (input.mediaUrl && input.mediaType) {
    return input.text ? { type: 'media', media: { mediaType: input.mediaType, url: input.mediaUrl }, text: input.text } : { type: 'media', media: { mediaType: input.mediaType, url: input.mediaUrl } };
  }
  const text = input.text ?? input.optionId ?? '';
  // An option reply is kept as its title with the option's id (`option`), which no send reads.
  return (input.optionId ? { type: 'text', text, option: { id: input.optionId } } : { type: 'text', text }) as MessageContent;
}

/** `message.received`'s `contentType`: text, option, or the media type. */
function contentType(input: CheckedInput): string {
  if (input.mediaType) return input.mediaType;
  return input.optionId ? 'option' : 'text';
}

function preview(input: CheckedInput): string | null {
  const text = input.text ?? input.optionId;
  if (text) return text.slice(0, 100);
  return input.mediaType;
}

/** PostgreSQL's unique violation, seen through the driver's error shape without importing it. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * One inbound message, handled in one transaction under a lock on the setor and the contact's
 * phone key (conversations.md §3): (1) a repeated provider message id is dropped; (2) the contact
 * (ninth-digit aware; the push name fills an empty name), conversation, 24-hour window and
 * affinity are found or created; (3) a rating reply is recorded on its closed ticket and stops
 * there; (4) the active ticket is joined (a snoozed one opens), else one closed within the
 * setor's reopen window is reopened with its assignee, else one is opened; (5) the tag rules run
 * (contact scope tags the contact, conversation scope the ticket); (6) the message is stored
 * (direction inbound, status received); (7) the events are recorded: `message.received`, and
 * `contact.created`, `conversation.created` (once per new ticket), `conversation.status_changed`,
 * `contact.tagged`, `conversation.rated` when they happened. A unique violation lost to a
 * concurrent writer (the same provider id through another path) runs the whole message again,
 * which then finds the winner.
 */
export class ReceiveInboundMessage {
  /** Messages waiting for a transaction (group commit), in arrival order. */
  private readonly queue: QueuedInbound[] = [];
  /** Group transactions in flight. */
  private lanes = 0;
  /** Pipelined: the waiting messages the next group waits for (0: none held), and which hold it is (an older one's sleep ends nothing). */
  private holdFor = 0;
  private holds = 0;

  constructor(
    private readonly uow: UnitOfWork<InboundAreas>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** Other areas reacting to a received text once it is recorded (an appointment confirmed by a reply). */
    private readonly listeners: readonly InboundMessageListener[] = [],
    /** The tickets area; without it messages are stored without a ticket. */
    private readonly threads: InboundThreads | null = null,
    /** How messages arriving together share transactions. */
    private readonly batching: InboundBatching = DEFAULT_INBOUND_BATCHING,
    /** The enabled tag rules kept between transactions (bounded staleness, see TagRuleCache); null reads them in each. */
    private readonly rulesCache: TagRuleCache | null = null,
  ) {}

  /** `repos.tagRules` answering `listEnabled` once per company for the transaction, through the cache when there is one. */
  private rulesOf(repos: Repositories<InboundAreas>): TagRuleRepository {
    const rules = new Map<string, ReturnType<TagRuleRepository['listEnabled']>>();
    const tagRules: TagRuleRepository = Object.create(repos.tagRules) as TagRuleRepository;
    tagRules.listEnabled = (companyId: string) => {
      let listed = rules.get(companyId);
      if (!listed) rules.set(companyId, (listed = this.rulesCache ? this.rulesCache.listEnabled(repos.tagRules, companyId) : repos.tagRules.listEnabled(companyId)));
      return listed;
    };
    return tagRules;
  }

  /** Messages waiting for a group transaction (every lane busy): for observability and tests. */
  get waiting(): number {
    return this.queue.length;
  }

  async execute(input: InboundMessageInput): Promise<InboundMessageResult> {
    const checked = check(input);
    // A number with its country code (as providers send it) gives the lock key before the setor is read.
    const early = this.threads?.lockKey ? internationalNumber(input.from) : null;
    const result =
      early !== null && this.threads?.lockAll && this.batching.maxBatch > 1
        ? await new Promise<InboundMessageResult>((resolve, reject) => {
            this.queue.push({ input, checked, from: early, resolve, reject });
            this.drain();
          })
        : await this.recordAlone(input, checked);
    const text = checked.text ?? checked.optionId;
    if (!result.duplicate && !result.ratingRecorded && text !== null) {
      for (const listener of this.listeners) await listener.onInbound(result, text);
    }
    return result;
  }

  /**
   * Starts a group transaction for the waiting messages while a lane is free; `finished` is the size of the group whose
   * end freed the lane (its senders may be about to write again: see `InboundBatching.pipelined`).
   */
  private drain(finished = 0): void {
    const pipelined = this.batching.pipelined;
    if (pipelined && this.queue.length > 0 && this.lanes < Math.max(1, this.batching.concurrency)) {
      const half = Math.ceil((this.queue.length + finished) / 2);
      if (this.holdFor === 0 && finished > 1 && this.queue.length < half) {
        this.holdFor = half;
        const hold = (this.holds += 1);
        void pipelined.sleep(pipelined.holdMs).then(() => {
          if (this.holdFor === 0 || this.holds !== hold) return;
          this.holdFor = 0;
          this.drain();
        });
        return;
      }
      if (this.holdFor > 0 && this.queue.length < this.holdFor) return;
      this.holdFor = 0;
    }
    while (this.lanes < Math.max(1, this.batching.concurrency) && this.queue.length > 0) {
      const group = this.queue.splice(0, this.batching.maxBatch);
      this.lanes += 1;
      void this.runGroup(group).finally(() => {
        this.lanes -= 1;
        this.drain(group.length);
      });
    }
  }

  /**
   * Group commit: the messages of `group` in one transaction, one after the other (a later message of a contact sees
   * what an earlier one wrote), under the locks of all their contacts taken at once in key order. Each message is
   * answered only after the commit. When anything fails the transaction rolls back as a whole and every message of the
   * group runs again alone, in its own transaction (the same answers as without grouping, errors included).
   */
  private async runGroup(group: QueuedInbound[]): Promise<void> {
    const alone = (item: QueuedInbound) => this.recordAlone(item.input, item.checked).then(item.resolve, item.reject);
    if (group.length === 1) return alone(group[0]!);
    let outcomes: (InboundMessageResult | NotFoundError)[];
    let rolledBack = false;
    try {
      outcomes = await this.uow.transaction(async (repos) => {
        try {
          return await this.recordGroup(repos, group);
        } catch (error) {
          rolledBack = true;
          throw error;
        }
      });
    } catch (error) {
      // A failure of the commit itself (a lost connection) may hide a commit that happened: no message runs again.
      if (!rolledBack) {
        for (const item of group) item.reject(error);
        return;
      }
      await Promise.all(group.map(alone));
      return;
    }
    group.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome instanceof NotFoundError) item.reject(outcome);
      else item.resolve(outcome);
    });
  }

  private async recordGroup(repos: Repositories<InboundAreas>, group: QueuedInbound[]): Promise<(InboundMessageResult | NotFoundError)[]> {
    const threads = this.threads!;
    const setores = new Map<string, Setor | null>();
    if (threads.lockKey) {
      // The setores and the contacts' locks in one statement: the keys (known before the setores: the numbers came with
      // their country code) in the order lockAll takes them, so that no two groups wait for each other in a cycle.
      const keys = [...new Set(group.map((item) => threads.lockKey!(item.input.setorId, phoneMatchKey(item.from))))].sort();
      const ids = [...new Set(group.map((item) => item.input.setorId))];
      const found = await repos.setores.findAllLocking(ids, keys);
      for (const id of ids) setores.set(id, found.find((setor) => setor.id === id) ?? null);
    } else {
      for (const item of group) {
        if (!setores.has(item.input.setorId)) setores.set(item.input.setorId, await repos.setores.findById(item.input.setorId));
      }
      const stored = group.filter((item) => setores.get(item.input.setorId));
      await threads.lockAll!(repos, stored.map((item) => ({ setorId: item.input.setorId, phoneKey: phoneMatchKey(item.from) })));
    }
    const known = group.filter((item) => setores.get(item.input.setorId));
    // The rules are read once per company for the group (or taken from the cache): the messages see them as of the group's start.
    const tagRules = this.rulesOf(repos);
    const context: GroupContext = {
      pending: { messages: [], events: [] },
      lookedUp: new Map(),
      createdContacts: new Set(),
      createdTickets: new Set(),
      contactLinks: new Map(),
      ticketLinks: new Map(),
      linkedAt: null,
      opened: [],
      active: new Map(),
      saves: new Map(),
    };
    // Tags the rules put on a contact the group created are linked at the end of the group, all in one insert: such a
    // contact has no link but those the group made (it did not exist before), so every tag not yet linked by the group is new.
    const tags: TagRepository = Object.create(repos.tags) as TagRepository;
    tags.tagContact = async (contactId, tagIds, at) => {
      if (!context.createdContacts.has(contactId)) return repos.tags.tagContact(contactId, tagIds, at);
      return deferLinks(context, context.contactLinks, contactId, null, tagIds, at);
    };
    const shared: Repositories<InboundAreas> = { ...repos, tagRules, tags };
    // Every message's time, in arrival order, fixed before the group's writes.
    const times = group.map(() => this.clock.now());
    // The provider ids of the group looked up at once (a repeat is dropped before anything of it is written).
    const { lookedUp } = context;
    const withIds = known.filter((item) => item.checked.providerMessageId !== null);
    if (withIds.length > 0) {
      for (const item of withIds) lookedUp.set(providerKey(item.input.setorId, item.checked.providerMessageId!), null);
      const stored = await repos.messages.findInboundByProviderIds(withIds.map((item) => ({ setorId: item.input.setorId, providerMessageId: item.checked.providerMessageId! })));
      for (const message of stored) lookedUp.set(providerKey(message.setorId, message.providerMessageId!), message);
    }
    // The contacts and conversations of the group in one write: each contact's first message that is no repeat (a later
    // message of the same contact, or a contact another transaction inserted meanwhile, records its own as alone).
    const firsts: { index: number; candidate: InboundContactCandidate }[] = [];
    const contactKeys = new Set<string>();
    const providerIdsOfGroup = new Set<string>();
    group.forEach((item, index) => {
      const setor = setores.get(item.input.setorId);
      if (!setor) return;
      const provider = item.checked.providerMessageId === null ? null : providerKey(setor.id, item.checked.providerMessageId);
      if (provider !== null && (lookedUp.get(provider) || providerIdsOfGroup.has(provider))) return;
      if (provider !== null) providerIdsOfGroup.add(provider);
      const contactKey = `${setor.companyId}|${phoneMatchKey(item.from)}`;
      if (contactKeys.has(contactKey)) return;
      contactKeys.add(contactKey);
      const at = times[index]!;
      const contact = createContact(this.ids.newId(), setor.companyId, item.from, item.checked.name, at);
      firsts.push({ index, candidate: { contact, conversation: newConversation(this.ids.newId(), setor.companyId, setor.id, contact.id, at), phone: item.from, at } });
    });
    const recorded = firsts.length > 0 ? await repos.conversations.recordInboundContacts(firsts.map((f) => f.candidate)) : [];
    const prefetched = new Map<number, Prefetched>();
    firsts.forEach((first, i) => {
      const result = recorded[i];
      if (result) prefetched.set(first.index, { ...result, candidateId: first.candidate.conversation.id });
    });
    // The active tickets of the contacts stored before the group, read at once; their joins are saved at once at the end.
    if (threads.findActiveAll && threads.saveJoined) {
      const pairs = new Map<string, { setorId: string; contactId: string }>();
      for (const first of prefetched.values()) {
        if (!first.created) pairs.set(inboundThreadKey(first.conversation.setorId, first.contact.id), { setorId: first.conversation.setorId, contactId: first.contact.id });
      }
      if (pairs.size > 0) {
        const found = await threads.findActiveAll(repos, [...pairs.values()]);
        for (const key of pairs.keys()) context.active.set(key, found.get(key) ?? null);
      }
    }
    // The messages and their events are written together at the end of the group (one insert).
    const outcomes: (InboundMessageResult | NotFoundError)[] = [];
    for (const [index, item] of group.entries()) {
      const setor = setores.get(item.input.setorId);
      outcomes.push(
        setor
          ? await this.handle(shared, setor, item.from, item.checked, times[index]!, context, prefetched.get(index) ?? null)
          : new NotFoundError('Box', { setor_id: item.input.setorId }),
      );
    }
    await flushOpened(shared, this.threads!, context);
    await flushSaves(shared, this.threads!, context);
    await flushLinks(shared, this.threads!, context);
    await flushPending(shared, context);
    return outcomes;
  }

  /** One message in its own transaction; a unique violation lost to a concurrent writer runs it again. */
  private async recordAlone(input: InboundMessageInput, checked: CheckedInput): Promise<InboundMessageResult> {
    try {
      return await this.record(input, checked);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return this.record(input, checked);
    }
  }

  private async record(input: InboundMessageInput, checked: CheckedInput): Promise<InboundMessageResult> {
    return this.uow.transaction(async (repos) => {
      const now = this.clock.now();
      const international = typeof input.from === 'string' && input.from.trim().startsWith('+');
      // A number with its country code (as providers send it) gives the lock key before the setor is read: the setor's
      // read takes the lock. A wrong number still answers after the setor's check (404 first), as below.
      const early = international && this.threads?.lockKey ? internationalNumber(input.from) : null;
      const setor = early !== null && this.threads?.lockKey
        ? await repos.setores.findByIdLocking(input.setorId, this.threads.lockKey(input.setorId, phoneMatchKey(early)))
        : await repos.setores.findById(input.setorId);
      if (!setor) throw new NotFoundError('Box', { setor_id: input.setorId });
      // A number without its country code is read in the setor's company's country (providers send it with one).
      const company = international ? null : await repos.companies.findById(setor.companyId);
      const from = early ?? normalizePhone(input.from, 'from', company?.defaultCountry);
      if (early === null) await this.threads?.lock(repos, setor.id, phoneMatchKey(from));
      return this.handle(this.rulesCache ? { ...repos, tagRules: this.rulesOf(repos) } : repos, setor, from, checked, now);
    });
  }

  /** Steps 1-7 for one message, under the lock of its contact, inside the caller's transaction. */
  private async handle(
    repos: Repositories<InboundAreas>,
    setor: Setor,
    from: string,
    checked: CheckedInput,
    now: Date,
    /** In a group: the provider ids looked up, and where the message and its events wait for the group's single insert. */
    group: GroupContext | null = null,
    /** In a group: the contact and conversation already recorded for this message. */
    prefetched: Prefetched | null = null,
  ): Promise<InboundMessageResult> {
    const pending = group?.pending ?? null;
    // (1) A provider id seen before on this setor: the provider repeated its webhook.
    if (checked.providerMessageId) {
      const key = providerKey(setor.id, checked.providerMessageId);
      const seen =
        pending?.messages.find((m) => m.setorId === setor.id && m.providerMessageId === checked.providerMessageId) ??
        (group?.lookedUp.has(key) ? group.lookedUp.get(key)! : await repos.messages.findInboundByProviderId(setor.id, checked.providerMessageId));
      if (seen) return this.duplicateOf(seen, setor);
    }

    // (2) Contact, conversation, window, affinity: in one write (as a group's), unless another transaction inserted the
    // contact during it (then one write for the contact and one for the rest).
    if (!prefetched) {
      const contact = createContact(this.ids.newId(), setor.companyId, from, checked.name, now);
      const conversation = newConversation(this.ids.newId(), setor.companyId, setor.id, contact.id, now);
      const [recorded] = await repos.conversations.recordInboundContacts([{ contact, conversation, phone: from, at: now }]);
      if (recorded) prefetched = { ...recorded, candidateId: conversation.id };
    }
    const stored = prefetched ?? (await repos.contacts.insertOrLockInbound(createContact(this.ids.newId(), setor.companyId, from, checked.name, now)));
    let contact = stored.contact;
    if (group && stored.created) group.createdContacts.add(contact.id);
    if (!stored.created && !contact.name && checked.name) {
      contact = { ...contact, name: checked.name, updatedAt: now };
      await repos.contacts.update(contact);
    }
    const candidate = prefetched ? { id: prefetched.candidateId } : newConversation(this.ids.newId(), setor.companyId, setor.id, contact.id, now);
    // The conversation (touched), the setor's 24-hour window and the contact's affinity, in one write.
    const conversation = prefetched ? prefetched.conversation : await repos.conversations.recordInbound(candidate as Conversation, from, now);

    const messageId = this.ids.newId();
    const event = (name: DomainEvent['event'], data: Record<string, unknown>): DomainEvent => ({
      id: this.ids.newId(),
      event: name,
      companyId: setor.companyId,
      setorId: setor.id,
      occurredAt: now,
      data,
      actor: systemActor,
    });
    const events: DomainEvent[] = [];
    if (stored.created) events.push(event('contact.created', { contactId: contact.id, phone: from, name: contact.name, source: 'inbound' }));
    // With the tickets area `conversation.created` marks each new ticket (its `join`); without it, the new thread.
    if (!this.threads && conversation.id === candidate.id) {
      events.push(event('conversation.created', { conversationId: conversation.id, contactId: contact.id, setorId: setor.id }));
    }
    // In a group, the contact's active ticket as the group knows it (see GroupContext.active).
    const threadKey = inboundThreadKey(setor.id, contact.id);
    const active = group && !stored.created && group.active.has(threadKey) ? group.active.get(threadKey) : undefined;
    const threadMessage: InboundThreadMessage = {
      companyId: setor.companyId,
      setor,
      contact,
      conversationId: conversation.id,
      messageId,
      text: checked.text,
      optionId: checked.optionId,
      preview: preview(checked),
      at: now,
      contactCreated: stored.created,
      deferOpen: group !== null && this.threads?.insertOpened !== undefined,
      ...(active !== undefined ? { active, deferSave: true } : {}),
    };
    // A contact the group created and wrote to before reads its tickets: those the group opened are inserted first.
    if (group && !stored.created && group.createdContacts.has(contact.id)) await flushOpened(repos, this.threads!, group);

    // (3) A rating reply stops here: no ticket is joined and no rule runs on it (no loops).
    const rating = this.threads ? await this.threads.ratingReply(repos, threadMessage) : null;
    let ticket: InboundTicketSummary | null = null;
    const tagsAdded: string[] = [];
    const later: DomainEvent[] = [];
    if (rating) {
      ticket = { id: rating.ticketId, number: rating.ticketNumber, status: 'closed', created: false, reopened: false };
      later.push(...rating.events);
    } else {
      // (4) The ticket.
      if (this.threads) {
        const joined = await this.threads.join(repos, threadMessage, assistantActive(contact, now));
        if (group && joined.deferred) group.opened.push({ state: joined.state, events: joined.events, summary: joined.ticket });
        if (group && joined.pendingSave) {
          const waiting = group.saves.get(joined.pendingSave.id);
          // A ticket joined twice in the group is written once: its latest state, where the version is still the one read.
          group.saves.set(joined.pendingSave.id, { state: joined.pendingSave.state, expectedVersion: waiting?.expectedVersion ?? joined.pendingSave.expectedVersion });
        }
        if (group && active !== undefined && !joined.deferred) {
          if (joined.state === undefined) group.active.delete(threadKey);
          else group.active.set(threadKey, joined.state);
        }
        ticket = joined.ticket;
        if (group && ticket.created) group.createdTickets.add(ticket.id);
        events.push(...joined.events);
        if ((ticket.created || ticket.reopened) && joined.needsAssignment !== false) {
          // The contact and the ticket first, then its assignment (conversation.assigned).
          // (The group's earlier messages and events first, so that the events keep their order.)
          if (group) {
            await flushOpened(repos, this.threads, group);
            await flushSaves(repos, this.threads, group);
            await flushPending(repos, group);
          }
          await repos.events.record(events.splice(0));
          await this.threads.assign(repos, setor.companyId, ticket.id, now, joined.state);
        }
      }
      // (5) Tag rules read inbound text only (text, caption, option title): never outbound, notes or ratings.
      const ruleText = checked.text ?? '';
      if (ruleText !== '') {
        const { result: tagged, conversationTagIds } = await runInboundTagRules(repos, this.ids, { companyId: setor.companyId, setorId: setor.id, contactId: contact.id, text: ruleText, at: now });
        tagsAdded.push(...tagged.contactTagIds);
        later.push(...tagged.events);
        if (ticket && this.threads && conversationTagIds.length > 0) {
          // A ticket the group opened has no tags but those the group put (linked at the end of the group, as for contacts).
          if (group && this.threads.linkTags && group.createdTickets.has(ticket.id)) {
            tagsAdded.push(...deferLinks(group, group.ticketLinks, ticket.id, setor.companyId, conversationTagIds, now));
          } else {
            tagsAdded.push(...(await this.threads.tag(repos, setor.companyId, ticket.id, conversationTagIds, now)));
          }
        }
      }
    }

    // (6) The message.
    const content = inboundContent(checked);
    const message: MessageRecord = {
      id: messageId,
      companyId: setor.companyId,
      conversationId: conversation.id,
      setorId: setor.id,
      contactId: contact.id,
      phone: from,
      senderNumber: null,
      keyMode: 'live',
      content,
      parts: [],
      status: 'received',
      providerMessageId: checked.providerMessageId,
      errorCode: null,
      error: null,
      reaction: null,
      editedAt: null,
      deletedAt: null,
      sentAt: null,
      createdAt: now,
      updatedAt: now,
      ticketId: ticket?.id ?? null,
      direction: 'inbound',
      type: 'message',
      author: { type: 'contact', id: contact.id },
      activity: null,
      deliveredAt: null,
      readAt: null,
    };

    // (7) Events: contact, ticket, message, then what the rules and the rating did (written with the message).
    events.push(
      event('message.received', {
        messageId,
        conversationId: conversation.id,
        contactId: contact.id,
        from,
        text: checked.text ?? checked.optionId ?? '',
        receivedAt: now.toISOString(),
        ticketId: ticket?.id ?? null,
        ticketStatus: ticket?.status ?? null,
        contentType: contentType(checked),
        mediaUrl: checked.mediaUrl,
        mediaType: checked.mediaType,
        optionId: checked.optionId,
        providerMessageId: checked.providerMessageId,
        contactName: contact.name,
        iaAtiva: assistantActive(contact, now),
        ratingReply: rating !== null,
      }),
    );
    if (pending) {
      pending.messages.push(message);
      pending.events.push(...events, ...later);
    } else {
      await repos.messages.insertWithEvents(message, [...events, ...later]);
    }
    return {
      messageId,
      companyId: setor.companyId,
      setorId: setor.id,
      from,
      contactId: contact.id,
      contactCreated: stored.created,
      conversationId: conversation.id,
      conversationCreated: conversation.id === candidate.id,
      receivedAt: now,
      windowOpenUntil: new Date(now.getTime() + CONVERSATION_WINDOW_MS),
      tagsAdded: [...new Set(tagsAdded)],
      ticket,
      ratingRecorded: rating !== null,
      duplicate: false,
    };
}

  /** The answer to a repeated provider id: the first message, nothing done. */
  private duplicateOf(seen: MessageRecord, setor: Setor): InboundMessageResult {
    return {
      messageId: seen.id,
      companyId: setor.companyId,
      setorId: setor.id,
      from: seen.phone,
      contactId: seen.contactId,
      contactCreated: false,
      conversationId: seen.conversationId,
      conversationCreated: false,
      receivedAt: seen.createdAt,
      windowOpenUntil: new Date(seen.createdAt.getTime() + CONVERSATION_WINDOW_MS),
      tagsAdded: [],
      ticket: null,
      ratingRecorded: false,
      duplicate: true,
    };
  }
}
