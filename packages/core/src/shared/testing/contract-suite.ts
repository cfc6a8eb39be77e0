import type { IdGenerator } from '../id-generator.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';

/** What a contract suite needs from an implementation under test: the areas it exercises, and a unit of work over them. */
export interface RepositoriesUnderTest<Areas extends object = {}> {
  repos: Repositories<Areas>;
  uow: UnitOfWork<Areas>;
}

/** UUIDs unique across a suite: the Kysely run of a contract shares one database between its cases. */
export class SuiteIds implements IdGenerator {
  private counter = 0;
  constructor(private readonly prefix: string) {}
  newId(): string {
    this.counter += 1;
    return `${this.prefix}-0000-4000-8000-${this.counter.toString().padStart(12, '0')}`;
  }
}

/** The instant every contract suite's fixtures are created at. */
export const CONTRACT_T0 = new Date('2026-03-01T12:00:00.000Z');
