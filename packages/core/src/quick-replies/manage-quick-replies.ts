import type { CompanyRepositories } from '../companies/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { Clock } from '../shared/clock.js';
import { assertBelowCompanyLimit, DomainError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { MAX_QUICK_REPLIES, applyQuickReplyInput, createQuickReply, type QuickReply, type QuickReplyInput } from './quick-reply.js';
import type { QuickReplyRepositories } from './quick-reply-repositories.js';
import type { QuickReplyFilters } from './quick-reply-repository.js';

type Areas = QuickReplyRepositories & CompanyRepositories & SetorRepositories;

const duplicate = (existing: QuickReply) =>
  new DomainError('CONFLICT', `The shortcut "${existing.shortcut}" is taken in this scope`, { quick_reply_id: existing.id });

/** Quick replies (GET /v1/quick-replies; the operator's POST, PATCH, DELETE): at most {@link MAX_QUICK_REPLIES} per company. */
export class ManageQuickReplies {
  constructor(
    private readonly uow: UnitOfWork<Areas>,
    private readonly repos: Repositories<Areas>,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async create(companyId: string, input: QuickReplyInput & { shortcut: string; title: string }): Promise<QuickReply> {
    return this.uow.transaction(async (repos) => {
      if (!(await repos.companies.findByIdForUpdate(companyId))) throw new NotFoundError('Company');
      assertBelowCompanyLimit(await repos.quickReplies.count(companyId), MAX_QUICK_REPLIES, 'quick replies');
      const reply = createQuickReply(this.ids.newId(), companyId, this.clock.now(), input);
      await this.checkSetor(repos, companyId, reply.setorId);
      const existing = await repos.quickReplies.insertUnique(reply);
      if (existing) throw duplicate(existing);
      return reply;
    });
  }

  list(companyId: string, filters: QuickReplyFilters, page: PageRequest): Promise<Page<QuickReply>> {
    return this.repos.quickReplies.list(companyId, filters, page);
  }

  async get(companyId: string, id: string): Promise<QuickReply> {
    const reply = await this.repos.quickReplies.findById(companyId, id);
    if (!reply) throw new NotFoundError('Quick reply');
    return reply;
  }

  /** The operator's PATCH /admin/v1/quick-replies/:id. */
  async update(id: string, input: QuickReplyInput): Promise<QuickReply> {
    const companyId = await this.repos.quickReplies.companyOf(id);
    if (!companyId) throw new NotFoundError('Quick reply');
    return this.uow.transaction(async (repos) => {
      // As on creation: the company row serialises shortcut checks, so two edits never race to one shortcut.
      await repos.companies.findByIdForUpdate(companyId);
      const reply = await repos.quickReplies.findById(companyId, id);
      if (!reply) throw new NotFoundError('Quick reply');
      const next = applyQuickReplyInput(reply, input, this.clock.now());
      if (input.setorId !== undefined) await this.checkSetor(repos, companyId, next.setorId);
      const clash = await repos.quickReplies.update(next);
      if (clash) throw duplicate(clash);
      return next;
    });
  }

  /** The operator's DELETE /admin/v1/quick-replies/:id. */
  async delete(id: string): Promise<void> {
    const companyId = await this.repos.quickReplies.companyOf(id);
    if (!companyId || !(await this.repos.quickReplies.delete(companyId, id))) throw new NotFoundError('Quick reply');
  }

  private async checkSetor(repos: Repositories<Areas>, companyId: string, setorId: string | null): Promise<void> {
    if (setorId !== null && !(await repos.setores.findByIdInCompany(companyId, setorId))) throw new ValidationError(`Setor ${setorId} does not belong to this company`, { field: 'setor_id', setor_id: setorId });
  }
}
