import { createSetor, type Setor, type SetorRepositories } from '../../setores/index.js';
import { CONTRACT_T0 } from '../../shared/testing/index.js';
import type { IdGenerator } from '../../shared/id-generator.js';
import type { Repositories } from '../../shared/unit-of-work.js';

/** The boxes the ticket contracts work in: two of the company's (Vendas, Suporte) and one of the other company's, stored. */
export async function ticketContractBoxes(
  repos: Repositories<SetorRepositories>,
  ids: IdGenerator,
  companyId: string,
  otherCompanyId: string,
): Promise<{ setor: Setor; setor2: Setor; otherSetor: Setor }> {
  const setor = createSetor(ids.newId(), companyId, CONTRACT_T0, { nome: 'Vendas' });
  const setor2 = createSetor(ids.newId(), companyId, CONTRACT_T0, { nome: 'Suporte' });
  const otherSetor = createSetor(ids.newId(), otherCompanyId, CONTRACT_T0, { nome: 'Outra' });
  for (const s of [setor, setor2, otherSetor]) await repos.setores.insert(s);
  return { setor, setor2, otherSetor };
}
