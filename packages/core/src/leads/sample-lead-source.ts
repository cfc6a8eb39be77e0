import { seededGenerator } from '../shared/random.js';
import { cnpjCheckDigits } from './cnpj.js';
import type { Lead, LeadPage, LeadPorte, LeadSearchCriteria, LeadSource } from './lead.js';
import { allMunicipios, findCnae, findMunicipio, type Municipio } from './lead-reference.js';

/** The month the sample data set says it was read in. */
export const SAMPLE_DATASET_MONTH = '2026-01';
/** Most companies one sample search can find (the sample's "~500 synthetic companies"). */
export const SAMPLE_MAX_RESULTS = 500;
const PAGE_SIZE = 100;

/** Area code of each state's capital: sample phones are simulator numbers of the lead's state. */
const DDD: Record<string, string> = {
  AC: '68', AL: '82', AM: '92', AP: '96', BA: '71', CE: '85', DF: '61', ES: '27', GO: '62', MA: '98', MG: '31', MS: '67', MT: '65', PA: '91',
  PB: '83', PE: '81', PI: '86', PR: '41', RJ: '21', RN: '84', RO: '69', RR: '95', RS: '51', SC: '48', SE: '79', SP: '11', TO: '63',
};

const NAMES = ['Aurora', 'Horizonte', 'Ipê', 'Jacarandá', 'Mandacaru', 'Caravela', 'Farol', 'Girassol', 'Araucária', 'Colibri', 'Bem-te-vi', 'Canoa', 'Pitanga', 'Serra Azul', 'Rio Claro', 'Boa Vista', 'Sol Nascente', 'Vale Verde', 'Estrela', 'Ponte Nova'];
const KINDS = ['Comércio', 'Serviços', 'Soluções', 'Atelier', 'Estúdio', 'Oficina', 'Grupo', 'Casa'];
const STREETS = ['Rua das Flores', 'Avenida Brasil', 'Rua XV de Novembro', 'Rua Sete de Setembro', 'Avenida Getúlio Vargas', 'Rua Tiradentes', 'Rua Dom Pedro II', 'Praça da Matriz'];
const DISTRICTS = ['Centro', 'Jardim América', 'Vila Nova', 'Boa Vista', 'São José', 'Santa Luzia'];

/** FNV-1a: the seed of one cell of the sample grid. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const digits = (next: () => number, n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join('');

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/**
 * The sample lead source (the default, and always for test keys): synthetic companies generated
 * from a seed over the real CNAE codes and IBGE municipalities asked for, with valid CNPJ check
 * digits, simulator phone numbers of the state (about one in eight ends in 0001, which the
 * simulator reports as having no account) and generic mailboxes, never personal data. Each
 * (activity, municipality) cell holds 3-12 companies; a state without municipalities reads five
 * of its municipalities chosen by the seed. The same seed and criteria always give the same leads.
 */
export class SampleLeadSource implements LeadSource {
  readonly name = 'sample';
  constructor(private readonly seed = 'carteiro') {}

  async search(criteria: LeadSearchCriteria, cursor: string | null): Promise<LeadPage> {
    const all = this.generate(criteria);
    const start = cursor === null ? 0 : Math.max(0, Number.parseInt(cursor, 10) || 0);
    const end = Math.min(all.length, start + PAGE_SIZE);
    return { items: all.slice(start, end), nextCursor: end < all.length ? String(end) : null, datasetMonth: SAMPLE_DATASET_MONTH, total: all.length };
  }

  /** Every lead of the criteria, in a stable order, filters applied, at most {@link SAMPLE_MAX_RESULTS}. */
  generate(criteria: LeadSearchCriteria): Lead[] {
    const places = this.places(criteria);
    const out: Lead[] = [];
    for (const code of criteria.cnaes) {
      if (!findCnae(code)) continue;
      for (const place of places) {
        const next = seededGenerator(hash(`${this.seed}:${code}:${place.ibgeCode}`));
        const count = 3 + Math.floor(next() * 10);
        for (let i = 0; i < count; i++) {
          const lead = this.company(next, code, place);
          if (!criteria.includeMei && lead.isMei) continue;
          if (criteria.onlyWithPhone && lead.phones.length === 0) continue;
          if (criteria.onlyWithEmail && lead.email === null) continue;
          out.push(lead);
          if (out.length >= SAMPLE_MAX_RESULTS) return out;
        }
      }
    }
    return out;
  }

  private places(criteria: LeadSearchCriteria): Municipio[] {
    if (criteria.municipios.length > 0) return criteria.municipios.map((c) => findMunicipio(c)).filter((m): m is Municipio => m !== null);
    const out: Municipio[] = [];
    for (const uf of criteria.ufs) {
      const inState = allMunicipios().filter((m) => m.uf === uf);
      const next = seededGenerator(hash(`${this.seed}:uf:${uf}`));
      const chosen = new Set<Municipio>();
      while (chosen.size < Math.min(5, inState.length)) chosen.add(pick(next, inState));
      out.push(...chosen);
    }
    return out;
  }

  private company(next: () => number, cnae: string, place: Municipio): Lead {
    const base = digits(next, 8) + '0001';
    const cnpj = base + cnpjCheckDigits(base);
    const fantasy = `${pick(next, NAMES)} ${pick(next, KINDS)}`;
    const roll = next();
    const porte: LeadPorte = roll < 0.25 ? 'MEI' : roll < 0.65 ? 'ME' : roll < 0.85 ? 'EPP' : 'DEMAIS';
    const isMei = porte === 'MEI';
    const suffix = isMei ? 'MEI' : porte === 'DEMAIS' ? 'S.A.' : 'LTDA';
    const hasPhone = next() < 0.85;
    const noAccount = next() < 0.125;
    const phone = `+55${DDD[place.uf] ?? '11'}9${digits(next, 4)}${noAccount ? '0001' : digits(next, 4).replace(/^000/, '100')}`;
    const emailRoll = next();
    const domain = `${slug(fantasy)}${slug(place.name).slice(0, 12)}`;
    const email = emailRoll < 0.2 ? null : emailRoll < 0.3 ? `contato@${domain}.invalid` : `contato@${domain}.com.br`;
    return {
      cnpj,
      razaoSocial: `${fantasy} ${suffix}`.toUpperCase(),
      nomeFantasia: next() < 0.8 ? fantasy : null,
      cnaePrincipal: cnae,
      situacao: 'ATIVA',
      porte,
      isMei,
      address: {
        street: pick(next, STREETS),
        number: String(1 + Math.floor(next() * 2000)),
        district: pick(next, DISTRICTS),
        city: place.name,
        uf: place.uf,
        postalCode: digits(next, 8),
        ibgeCode: place.ibgeCode,
      },
      phones: hasPhone ? [phone] : [],
      email,
    };
  }
}
