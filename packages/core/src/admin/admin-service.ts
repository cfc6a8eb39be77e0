import { generateApiKeySecret, validateScopes, type ApiKey, type KeyMode } from '../api-keys/index.js';
import { DEFAULT_RPM, createCompany, updateCompany, type Company, type CompanySettingsInput } from '../companies/index.js';
import { createSetor, withInboxSettings, type ChannelType, type OfficialConfig, type Setor, type SetorInboxInput } from '../setores/index.js';
import { checkPlaceholders } from '../quick-replies/index.js';
import { MAX_TEAMS, createTeam, type Team } from '../teams/index.js';
import type { Clock } from '../shared/clock.js';
import { assertBelowCompanyLimit, NotFoundError, ValidationError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/id-generator.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Random } from '../shared/random.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { ApiKeyRepositories } from '../api-keys/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { TeamRepositories } from '../teams/index.js';

/** A key as created: the only moment the full key is known. */
export interface IssuedApiKey {
  apiKey: ApiKey;
  key: string;
}

export interface NewApiKeyInput {
  name: string;
  scopes: string[];
  mode: KeyMode;
  rpm?: number;
}

/** The operator's use cases behind `/admin/v1` and `npm run admin`. */
export class AdminService {
  constructor(
    private readonly uow: UnitOfWork<ApiKeyRepositories & CompanyRepositories & SetorRepositories & TeamRepositories>,
    private readonly repos: Repositories<ApiKeyRepositories & CompanyRepositories & SetorRepositories & TeamRepositories>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly random: Random,
  ) {}

  async createCompany(input: CompanySettingsInput & { name: string }): Promise<Company> {
    const company = createCompany(this.ids.newId(), this.clock.now(), input);
    await this.repos.companies.insert(company);
    return company;
  }

  async getCompany(id: string): Promise<Company> {
    const company = await this.repos.companies.findById(id);
    if (!company) throw new NotFoundError('Company');
    return company;
  }

  async updateCompany(id: string, input: CompanySettingsInput): Promise<Company> {
    return this.uow.transaction(async (tx) => {
      const company = await tx.companies.findByIdForUpdate(id);
      if (!company) throw new NotFoundError('Company');
      const next = updateCompany(company, this.clock.now(), input);
      await tx.companies.update(next);
      return next;
    });
  }

  async createApiKey(companyId: string, input: NewApiKeyInput): Promise<IssuedApiKey> {
    await this.getCompany(companyId);
    return this.issueKey(this.repos, companyId, input);
  }

  private async issueKey(repos: Repositories<ApiKeyRepositories & CompanyRepositories & SetorRepositories & TeamRepositories>, companyId: string, input: NewApiKeyInput): Promise<IssuedApiKey> {
    const rpm = input.rpm ?? DEFAULT_RPM;
    if (!Number.isInteger(rpm) || rpm < 1) throw new ValidationError('rpm must be a positive integer', { field: 'rpm' });
    const secret = generateApiKeySecret(this.random, input.mode);
    const apiKey: ApiKey = {
      id: this.ids.newId(),
      companyId,
      name: input.name,
      prefix: secret.prefix,
      keyHash: secret.hash,
      scopes: validateScopes(input.scopes),
      mode: input.mode,
      rpm,
      createdAt: this.clock.now(),
      revokedAt: null,
      expiresAt: null,
    };
    await repos.apiKeys.insert(apiKey);
    return { apiKey, key: secret.key };
  }

  async listApiKeys(companyId: string, page: PageRequest): Promise<Page<ApiKey>> {
    await this.getCompany(companyId);
    return this.repos.apiKeys.listByCompany(companyId, page);
  }

  /** A new key with the same settings; the old one keeps working for `graceSeconds`, then answers 401. */
  async rotateApiKey(id: string, graceSeconds: number): Promise<IssuedApiKey> {
    if (!Number.isInteger(graceSeconds) || graceSeconds < 0) {
      throw new ValidationError('grace_seconds must be a non-negative integer', { field: 'grace_seconds' });
    }
    return this.uow.transaction(async (tx) => {
      // Locked: concurrent rotations each see the expiry the one before set (only ever shortened), and a revoke waits
      // for this rotation instead of being overwritten by the revoked_at it read before.
      const old = await tx.apiKeys.findByIdForUpdate(id);
      if (!old || old.revokedAt) throw new NotFoundError('API key');
      const expiresAt = new Date(this.clock.now().getTime() + graceSeconds * 1000);
      if (!old.expiresAt || old.expiresAt > expiresAt) await tx.apiKeys.update({ ...old, expiresAt });
      return this.issueKey(tx, old.companyId, { name: old.name, scopes: old.scopes, mode: old.mode, rpm: old.rpm });
    });
  }

  async revokeApiKey(id: string): Promise<ApiKey> {
    return this.uow.transaction(async (tx) => {
      const key = await tx.apiKeys.findByIdForUpdate(id);
      if (!key) throw new NotFoundError('API key');
      const revoked = { ...key, revokedAt: key.revokedAt ?? this.clock.now() };
      await tx.apiKeys.update(revoked);
      return revoked;
    });
  }

  async createSetor(
    companyId: string,
    input: { nome: string; channelType?: ChannelType; official?: OfficialConfig | null },
  ): Promise<Setor> {
    await this.getCompany(companyId);
    const setor = createSetor(this.ids.newId(), companyId, this.clock.now(), input);
    await this.repos.setores.insert(setor);
    return setor;
  }

  async listSetores(companyId: string, page: PageRequest): Promise<Page<Setor>> {
    await this.getCompany(companyId);
    return this.repos.setores.listByCompany(companyId, page);
  }

  async getSetor(id: string): Promise<Setor> {
    const setor = await this.repos.setores.findById(id);
    if (!setor) throw new NotFoundError('Setor');
    return setor;
  }

  async updateSetor(id: string, input: { nome?: string; warmingDailyLimit?: number | null; inbox?: SetorInboxInput }): Promise<Setor> {
    const { companyId } = await this.getSetor(id);
    if (input.inbox && Object.keys(input.inbox).length > 0) checkPlaceholders(input.inbox.closingMessage, 'closing_message');
    return this.uow.transaction(async (tx) => {
      // The company row serialises the operator's edits of its boxes: an edit of other settings running at the same
      // time waits and starts from this one's result, instead of writing back the row it read before (written whole).
      // Not the box row itself: sends and inbound messages read and reference it all the time.
      await tx.companies.findByIdForUpdate(companyId);
      const found = await tx.setores.findById(id);
      if (!found) throw new NotFoundError('Setor');
      let setor = found;
      if (input.inbox && Object.keys(input.inbox).length > 0) {
        const teamId = input.inbox.defaultTeamId;
        if (teamId && !(await tx.teams.findByIdInCompany(found.companyId, teamId))) {
          throw new ValidationError(`Team ${teamId} does not belong to this company`, { field: 'default_team_id', team_id: teamId });
        }
        setor = withInboxSettings(found, input.inbox, this.clock.now());
      }
      const next: Setor = {
        ...setor,
        nome: input.nome ?? setor.nome,
        warmingDailyLimitOverride: input.warmingDailyLimit === undefined ? setor.warmingDailyLimitOverride : input.warmingDailyLimit,
        updatedAt: this.clock.now(),
      };
      await tx.setores.update(next);
      return next;
    });
  }

  async createTeam(companyId: string, input: { nome: string; setorIds?: string[] }): Promise<Team> {
    await this.getCompany(companyId);
    const setorIds = [...new Set(input.setorIds ?? [])];
    for (const setorId of setorIds) {
      if (!(await this.repos.setores.findByIdInCompany(companyId, setorId))) {
        throw new ValidationError(`Setor ${setorId} does not belong to this company`, { field: 'setor_ids', setor_id: setorId });
      }
    }
    const team: Team = createTeam(this.ids.newId(), companyId, this.clock.now(), { nome: input.nome, setorIds });
    await this.uow.transaction(async (tx) => {
      // The company row serialises creations so the limit holds under concurrency.
      await tx.companies.findByIdForUpdate(companyId);
      assertBelowCompanyLimit(await tx.teams.count(companyId), MAX_TEAMS, 'teams');
      await tx.teams.insert(team);
    });
    return team;
  }
}
