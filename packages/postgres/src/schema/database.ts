import type { CampaignsTables } from './campaigns-tables.js';
import type { ChannelTables } from './channel-tables.js';
import type { FoundationTables } from './foundation-tables.js';
import type { MessagesTables } from './messages-tables.js';
import type { WebhooksTables } from './webhooks-tables.js';

/** Every table of the service, for Kysely's type checking. */
export interface Database extends FoundationTables, ChannelTables, MessagesTables, CampaignsTables, WebhooksTables {}
