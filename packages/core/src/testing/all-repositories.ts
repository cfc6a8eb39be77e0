import type { ApiKeyRepositories } from '../api-keys/index.js';
import type { CampaignRepositories } from '../campaigns/index.js';
import type { ChannelRepositories } from '../channel/index.js';
import type { CompanyRepositories } from '../companies/index.js';
import type { ContactRepositories } from '../contacts/index.js';
import type { MessageRepositories } from '../messages/index.js';
import type { RoutingRepositories } from '../routing/index.js';
import type { SetorRepositories } from '../setores/index.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { TagRepositories } from '../tags/index.js';
import type { TeamRepositories } from '../teams/index.js';
import type { UsageRepositories } from '../usage/index.js';
import type { WebhookRepositories } from '../webhooks/index.js';

/**
 * Every area's repositories together: what the fakes' unit of work and the contract suites hand
 * out. Production code never names this type; each use case names the areas it uses.
 */
export type AllAreas =   ApiKeyRepositories &
    CampaignRepositories &
    ChannelRepositories &
    CompanyRepositories &
    ContactRepositories &
    MessageRepositories &
    RoutingRepositories &
    SetorRepositories &
    TagRepositories &
    TeamRepositories &
    UsageRepositories &
    WebhookRepositories;

/** {@link AllAreas} with the kernel's outbox and job queue. */
export type AllRepositories = Repositories<AllAreas>;
