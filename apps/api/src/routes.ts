import type { RouteDefinition } from './http/route.js';
import { accountRoutes } from './foundation/account.routes.js';
import { adminRoutes } from './admin/admin.routes.js';
import { agentsRoutes } from './agents/agents.routes.js';
import { campaignsRoutes } from './campaigns/campaigns.routes.js';
import { channelRoutes } from './channel/channel.routes.js';
import { contactsRoutes } from './contacts/contacts.routes.js';
import { importsRoutes } from './contacts/imports.routes.js';
import { tagsRoutes } from './contacts/tags.routes.js';
import { contractsRoutes } from './contracts/contracts.routes.js';
import { crmRoutes } from './crm/crm.routes.js';
import { leadsRoutes } from './leads/leads.routes.js';
import { billingAdminRoutes } from './billing/billing.routes.js';
import { reportsRoutes } from './reports/reports.routes.js';
import { messagesRoutes } from './messages/messages.routes.js';
import { referenceRoutes } from './openapi/reference.routes.js';
import { appointmentsRoutes } from './scheduling/appointments.routes.js';
import { scheduledMessagesRoutes } from './scheduling/scheduled-messages.routes.js';
import { schedulingAdminRoutes } from './scheduling/scheduling-admin.routes.js';
import { simulatorInboundRoutes } from './simulator-inbound/simulator-inbound.routes.js';
import { providerWebhooksRoutes } from './provider-webhooks/provider-webhooks.routes.js';
import { webhooksRoutes } from './webhooks/webhooks.routes.js';
import { ticketMessagesRoutes } from './tickets/ticket-messages.routes.js';
import { ticketsRoutes } from './tickets/tickets.routes.js';
import { ratingsRoutes } from './tickets/ratings.routes.js';

/**
 * Every route of the API, one line per area, in registration order. `createApp` registers them,
 * `buildOpenApiDocument` documents them and the route-wide tests (scope matrix, fuzzer, OpenAPI
 * coverage, integer bounds) walk them: a route added to an area's list is covered everywhere.
 */
export const apiRoutes: readonly RouteDefinition[] = [
  ...referenceRoutes,
  ...accountRoutes,
  ...messagesRoutes,
  ...campaignsRoutes,
  ...channelRoutes,
  ...webhooksRoutes,
  ...contactsRoutes,
  ...tagsRoutes,
  ...agentsRoutes,
  ...importsRoutes,
  ...crmRoutes,
  ...contractsRoutes,
  ...scheduledMessagesRoutes,
  ...appointmentsRoutes,
  ...leadsRoutes,
  ...reportsRoutes,
  ...ticketsRoutes,
  ...ticketMessagesRoutes,
  ...ratingsRoutes,
  ...adminRoutes,
  ...billingAdminRoutes,
  ...schedulingAdminRoutes,
  ...simulatorInboundRoutes,
  ...providerWebhooksRoutes,
];
