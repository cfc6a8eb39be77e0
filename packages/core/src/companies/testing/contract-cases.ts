import { createCompany, type CompanyRepositories } from '../index.js';
import { CONTRACT_T0, SuiteIds, type RepositoriesUnderTest } from '../../shared/testing/index.js';

/**
 * Fresh cases of a contract suite: each call gives the implementation under test with two
 * companies ('Acme' and 'Other', for tenancy checks) and ids no other case uses. `letter` (one or two
 * hex digits per suite) keeps suites sharing one database apart.
 */
export function contractCases<Areas extends CompanyRepositories>(letter: string, setup: () => Promise<RepositoriesUnderTest<Areas>>) {
  let run = 0;
  return async () => {
    run += 1;
    const ids = new SuiteIds(`${letter}${run.toString().padStart(8 - letter.length, '0')}`);
    const sut = await setup();
    const company = createCompany(ids.newId(), CONTRACT_T0, { name: 'Acme' });
    const other = createCompany(ids.newId(), CONTRACT_T0, { name: 'Other' });
    await sut.repos.companies.insert(company);
    await sut.repos.companies.insert(other);
    return { ...sut, ids, company, other };
  };
}
