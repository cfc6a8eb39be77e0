import { CNAE_ROWS } from './reference/cnae.data.js';
import { MUNICIPIO_ROWS } from './reference/municipio.data.js';

/** A CNAE 2.3 subclass. */
export interface Cnae {
  /** 7 digits. */
  code: string;
  /** `NNNN-N/NN`. */
  formatted: string;
  description: string;
}

/** An IBGE municipality with its state and the IANA zone of that state. */
export interface Municipio {
  ibgeCode: string;
  name: string;
  uf: string;
  timezone: string;
}

/** Lower case without accents or punctuation: what autocomplete compares. */
export function foldReferenceText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

export function formatCnaeCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4, 5)}/${code.slice(5, 7)}`;
}

interface Indexed<T> {
  item: T;
  folded: string;
  /** `folded` with a leading space: a term starts a word where `' ' + term` occurs. */
  spaced: string;
}

let cnaeIndex: Indexed<Cnae>[] | null = null;
let cnaeByCode: Map<string, Cnae> | null = null;
let municipioIndex: Indexed<Municipio>[] | null = null;
let municipioByCode: Map<string, Municipio> | null = null;
let municipiosByName: Indexed<Municipio>[] = [];

function cnaes(): Indexed<Cnae>[] {
  if (!cnaeIndex) {
    cnaeIndex = CNAE_ROWS.map(([code, description]) => {
      const folded = foldReferenceText(description);
      return { item: { code, formatted: formatCnaeCode(code), description }, folded, spaced: ` ${folded}` };
    });
    cnaeByCode = new Map(cnaeIndex.map((c) => [c.item.code, c.item]));
  }
  return cnaeIndex;
}

function municipios(): Indexed<Municipio>[] {
  if (!municipioIndex) {
    municipioIndex = MUNICIPIO_ROWS.map(([ibgeCode, name, uf, timezone]) => {
      const folded = foldReferenceText(name);
      return { item: { ibgeCode, name, uf, timezone }, folded, spaced: ` ${folded}` };
    });
    municipiosByName = [...municipioIndex].sort((a, b) => (a.folded < b.folded ? -1 : a.folded > b.folded ? 1 : 0));
    municipioByCode = new Map(municipioIndex.map((m) => [m.item.ibgeCode, m.item]));
  }
  return municipioIndex;
}

/** Every CNAE subclass, by code. */
export function allCnaes(): readonly Cnae[] {
  return cnaes().map((c) => c.item);
}

/** Every municipality, by IBGE code. */
export function allMunicipios(): readonly Municipio[] {
  return municipios().map((m) => m.item);
}

/** The subclass of a code written as 7 digits or `NNNN-N/NN`, or null. */
export function findCnae(code: string): Cnae | null {
  cnaes();
  return cnaeByCode!.get(code.replace(/[^0-9]/g, '')) ?? null;
}

export function findMunicipio(ibgeCode: string): Municipio | null {
  municipios();
  return municipioByCode!.get(ibgeCode) ?? null;
}

/**
 * Ranks by words: every query word must start a word of the text (accent-free, any order).
 * Rank 0: the text starts with the whole query; 1: the words appear in order; 2: any order.
 * Ties: shorter texts first, then the source order.
 */
function wordMatches<T>(index: Indexed<T>[], query: string, limit: number, accept: (item: T) => boolean = () => true): T[] {
  const folded = foldReferenceText(query);
  if (folded === '') return [];
  const terms = folded.split(' ').map((t) => ` ${t}`);
  const hits: { rank: number; len: number; pos: number; item: T }[] = [];
  for (let pos = 0; pos < index.length; pos++) {
    const entry = index[pos]!;
    let ok = true;
    for (const term of terms) {
      if (!entry.spaced.includes(term)) {
        ok = false;
        break;
      }
    }
    if (!ok || !accept(entry.item)) continue;
    const rank = entry.folded.startsWith(folded) ? 0 : entry.folded.includes(folded) ? 1 : 2;
    hits.push({ rank, len: entry.folded.length, pos, item: entry.item });
  }
  hits.sort((a, b) => a.rank - b.rank || a.len - b.len || a.pos - b.pos);
  return hits.slice(0, limit).map((h) => h.item);
}

/**
 * CNAE autocomplete (`GET /v1/leads/cnaes`): a query of digits (with or without the mask's
 * punctuation) matches by code prefix, in code order; anything else matches the description's
 * words without accents (see {@link wordMatches}).
 */
export function searchCnaes(q: string, limit: number): Cnae[] {
  const index = cnaes();
  const digits = q.replace(/[\s./-]/g, '');
  if (/^[0-9]+$/.test(digits)) {
    const out: Cnae[] = [];
    for (const entry of index) {
      if (entry.item.code.startsWith(digits)) {
        out.push(entry.item);
        if (out.length >= limit) break;
      }
    }
    return out;
  }
  return wordMatches(index, q, limit);
}

/**
 * Municipality autocomplete (`GET /v1/leads/municipios`): by IBGE code prefix when `q` is digits,
 * else by accent-free words of the name; `uf` narrows to one state; without `q`, the state's
 * municipalities by name.
 */
export function searchMunicipios(q: string | undefined, uf: string | undefined, limit: number): Municipio[] {
  const index = municipios();
  const state = uf?.toUpperCase();
  const inState = (m: Municipio) => state === undefined || m.uf === state;
  const query = (q ?? '').trim();
  if (query === '') {
    const out: Municipio[] = [];
    for (const entry of municipiosByName) {
      if (inState(entry.item)) {
        out.push(entry.item);
        if (out.length >= limit) break;
      }
    }
    return out;
  }
  if (/^[0-9]+$/.test(query)) {
    const out: Municipio[] = [];
    for (const entry of index) {
      if (inState(entry.item) && entry.item.ibgeCode.startsWith(query)) {
        out.push(entry.item);
        if (out.length >= limit) break;
      }
    }
    return out;
  }
  return wordMatches(index, query, limit, inState);
}

/** The 27 federative units. */
export const UFS = ['AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA', 'PB', 'PE', 'PI', 'PR', 'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO'] as const;
