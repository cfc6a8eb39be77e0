import { agentsArea } from './agents/agents-area.js';
import { billingArea } from './billing/billing-area.js';
import { campaignsArea } from './campaigns/campaigns-area.js';
import { channelArea } from './channel/channel-area.js';
import { contactsArea } from './contacts/contacts-area.js';
import { contractsArea } from './contracts/contracts-area.js';
import { crmArea } from './crm/crm-area.js';
import { foundationArea } from './foundation/foundation-area.js';
import { leadsArea } from './leads/leads-area.js';
import { messagesArea } from './messages/messages-area.js';
import { receiptsArea } from './receipts/receipts-area.js';
import { schedulingArea } from './scheduling/scheduling-area.js';
import { ticketsArea } from './tickets/tickets-area.js';
import { ticketRepliesArea } from './tickets/ticket-replies-area.js';
import { webhooksArea } from './webhooks/webhooks-area.js';

/**
 * Every area kept in PostgreSQL, one line each: the migrator runs their migrations in name order
 * and the unit of work hands out their repositories. Adding an area adds one line here.
 */
export const postgresAreas = [foundationArea, channelArea, messagesArea, campaignsArea, webhooksArea, crmArea, contractsArea, contactsArea, schedulingArea, leadsArea, billingArea, agentsArea, ticketsArea, ticketRepliesArea, receiptsArea] as const;
