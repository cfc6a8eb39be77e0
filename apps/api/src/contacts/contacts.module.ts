import {
  Clock,
  contactQueueDefinitions,
  CreateContactImport,
  IdGenerator,
  IdempotentRequests,
  ManageContactFields,
  ManageContacts,
  ManageTagRules,
  ManageTags,
  ReadContactImport,
  ReadContacts,
  Repositories,
  TagRuleCache,
  UnitOfWork,
  UpsertContact,
  type ContactRepositories,
  type TagRepositories,
} from '@carteiro/core';
import { QueueDefinitions } from '@carteiro/pgboss';
import { ContainerModule } from 'inversify';
import type { ServiceUnitOfWork } from '@carteiro/postgres';
import { bindSingleton } from '@carteiro/system';

/** The Idempotency-Key runner of POST /v1/contacts and POST /v1/imports (the records are the campaigns'). */
export const ContactIdempotency = Symbol.for('carteiro.api.ContactIdempotency');

/** Contacts, custom fields, tags, tag rules and imports (routes: contacts.routes.ts, tags.routes.ts, imports.routes.ts). */
export const contactsModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(contactQueueDefinitions);
  bindSingleton(bind, ReadContacts, [Repositories, Clock]);
  bindSingleton(bind, UpsertContact, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ManageContacts, [UnitOfWork, Clock, IdGenerator]);
  bindSingleton(bind, ManageContactFields, [UnitOfWork, IdGenerator, Clock]);
  // The enabled tag rules inbound messages keep between transactions; the tag and rule writes drop a company's.
  bindSingleton(bind, TagRuleCache, [Clock]);
  bindSingleton(bind, ManageTags, [UnitOfWork, Repositories, IdGenerator, Clock, TagRuleCache]);
  bindSingleton(bind, ManageTagRules, [UnitOfWork, Repositories, IdGenerator, Clock, TagRuleCache]);
  bindSingleton(bind, CreateContactImport, [UnitOfWork, Clock, IdGenerator]);
  bind(ContactIdempotency)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new IdempotentRequests<ContactRepositories & TagRepositories>(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  bindSingleton(bind, ReadContactImport, [Repositories]);
});
