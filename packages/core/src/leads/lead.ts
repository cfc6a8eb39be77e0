/** Porte of a company in the Receita Federal data. */
export type LeadPorte = 'MEI' | 'ME' | 'EPP' | 'DEMAIS';

/** A company found by a lead search (business.md §5); each one returned costs 1 lead credit. */
export interface Lead {
  /** 14 characters, alphanumeric-ready. */
  cnpj: string;
  razaoSocial: string;
  nomeFantasia: string | null;
  cnaePrincipal: string;
  situacao: string;
  porte: LeadPorte;
  isMei: boolean;
  address: {
    street: string;
    number: string;
    district: string;
    city: string;
    uf: string;
    postalCode: string;
    ibgeCode: string;
  };
  /** E.164. */
  phones: string[];
  email: string | null;
}

/** What a search asks for (`POST /v1/leads/search`). */
export interface LeadSearchCriteria {
  /** 7-digit CNAE subclass codes, 1-20. */
  cnaes: string[];
  /** IBGE codes, ≤ 50; or `ufs`. */
  municipios: string[];
  ufs: string[];
  includeMei: boolean;
  onlyWithPhone: boolean;
  onlyWithEmail: boolean;
  /** Leads wanted, ≤ 1,000. */
  limit: number;
}

/** One page of a source. */
export interface LeadPage {
  items: Lead[];
  /** Null on the last page. */
  nextCursor: string | null;
  /** `YYYY-MM` of the data set the source read. */
  datasetMonth: string;
  /** How many leads the source has for the criteria, when it says. */
  total?: number;
}

/**
 * Where leads come from: the sample source (default, and always for test keys) or a provider of
 * the Receita Federal open CNPJ data. Pages are read in order with the cursor a page returned;
 * a search resumed after a crash reads again from its last stored cursor.
 */
export interface LeadSource {
  readonly name: string;
  search(criteria: LeadSearchCriteria, cursor: string | null): Promise<LeadPage>;
}
export const LeadSource = Symbol.for('carteiro.LeadSource');

/** The sample source, which test keys always use (bound beside the configured {@link LeadSource}). */
export const SampleLeadSourceToken = Symbol.for('carteiro.SampleLeadSource');
