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
import type { ServiceRepositories, ServiceUnitOfWork } from '@carteiro/postgres';

/** The Idempotency-Key runner of POST /v1/contacts and POST /v1/imports (the records are the campaigns'). */
export const ContactIdempotency = Symbol.for('carteiro.api.ContactIdempotency');

/** Contacts, custom fields, tags, tag rules and imports (routes: contacts.routes.ts, tags.routes.ts, imports.routes.ts). */
export const contactsModule = new ContainerModule(({ bind }) => {
  bind(QueueDefinitions).toConstantValue(contactQueueDefinitions);
  bind(ReadContacts)
    .toResolvedValue((repos: ServiceRepositories, clock: Clock) => new ReadContacts(repos, clock), [Repositories, Clock])
    .inSingletonScope();
  bind(UpsertContact)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new UpsertContact(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ManageContacts)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new ManageContacts(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ManageContactFields)
    .toResolvedValue((uow: ServiceUnitOfWork, ids: IdGenerator, clock: Clock) => new ManageContactFields(uow, ids, clock), [UnitOfWork, IdGenerator, Clock])
    .inSingletonScope();
  // The enabled tag rules inbound messages keep between transactions; the tag and rule writes drop a company's.
  bind(TagRuleCache)
    .toResolvedValue((clock: Clock) => new TagRuleCache(clock), [Clock])
    .inSingletonScope();
  bind(ManageTags)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, ids: IdGenerator, clock: Clock, rules: TagRuleCache) => new ManageTags(uow, repos, ids, clock, rules),
      [UnitOfWork, Repositories, IdGenerator, Clock, TagRuleCache],
    )
    .inSingletonScope();
  bind(ManageTagRules)
    .toResolvedValue(
      (uow: ServiceUnitOfWork, repos: ServiceRepositories, ids: IdGenerator, clock: Clock, rules: TagRuleCache) => new ManageTagRules(uow, repos, ids, clock, rules),
      [UnitOfWork, Repositories, IdGenerator, Clock, TagRuleCache],
    )
    .inSingletonScope();
  bind(CreateContactImport)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock, ids: IdGenerator) => new CreateContactImport(uow, clock, ids), [UnitOfWork, Clock, IdGenerator])
    .inSingletonScope();
  bind(ContactIdempotency)
    .toResolvedValue((uow: ServiceUnitOfWork, clock: Clock) => new IdempotentRequests<ContactRepositories & TagRepositories>(uow, clock), [UnitOfWork, Clock])
    .inSingletonScope();
  bind(ReadContactImport)
    .toResolvedValue((repos: ServiceRepositories) => new ReadContactImport(repos), [Repositories])
    .inSingletonScope();
});
