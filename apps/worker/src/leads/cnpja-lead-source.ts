import { findMunicipio, LeadSourceError, type Lead, type LeadPage, type LeadPorte, type LeadSearchCriteria, type LeadSource } from '@carteiro/core';

interface CnpjaOffice {
  taxId: string;
  alias?: string | null;
  updated?: string;
  company?: { name?: string; size?: { acronym?: string } | null; simei?: { optant?: boolean } | null };
  mainActivity?: { id?: number | string };
  status?: { text?: string };
  address?: { municipality?: number | string; street?: string; number?: string; district?: string; city?: string; state?: string; zip?: string };
  phones?: { area?: string; number?: string }[];
  emails?: { address?: string }[];
}

interface CnpjaSearch {
  next?: string | null;
  count?: number;
  records?: CnpjaOffice[];
}

const PORTE: Record<string, LeadPorte> = { ME: 'ME', EPP: 'EPP', DEMAIS: 'DEMAIS' };

/**
 * The CNPJá source (`LEAD_SOURCE=cnpja`): the office search of the CNPJá API over the Receita
 * Federal open CNPJ data — `GET /office` filtered by main activity, IBGE municipality or state,
 * paged by the `token` the previous page returned (our cursor). 401/403/400 fail the search
 * (retrying will not help); other errors are retried by the job.
 */
export class CnpjaLeadSource implements LeadSource {
  readonly name = 'cnpja';
  constructor(private readonly options: { apiKey: string; baseUrl: string; pageSize?: number }) {}

  async search(criteria: LeadSearchCriteria, cursor: string | null): Promise<LeadPage> {
    const url = new URL('/office', this.options.baseUrl);
    const limit = Math.min(this.options.pageSize ?? 100, criteria.limit);
    if (cursor) url.searchParams.set('token', cursor);
    else {
      url.searchParams.set('limit', String(limit));
      url.searchParams.set('mainActivity.id.in', criteria.cnaes.join(','));
      if (criteria.municipios.length > 0) url.searchParams.set('address.municipality.in', criteria.municipios.join(','));
      else url.searchParams.set('address.state.in', criteria.ufs.join(','));
      url.searchParams.set('status.id.in', '2');
      if (!criteria.includeMei) url.searchParams.set('company.simei.optant.eq', 'false');
      if (criteria.onlyWithPhone) url.searchParams.set('phones.ex', 'true');
      if (criteria.onlyWithEmail) url.searchParams.set('emails.ex', 'true');
    }
    const response = await fetch(url, { headers: { Authorization: this.options.apiKey, Accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
    if ([400, 401, 403].includes(response.status)) throw new LeadSourceError(`cnpja_http_${response.status}`);
    if (!response.ok) throw new Error(`CNPJá answered HTTP ${response.status}`);
    const body = (await response.json()) as CnpjaSearch;
    const items = (body.records ?? []).map((o) => this.lead(o));
    const updated = body.records?.find((r) => r.updated)?.updated;
    return { items, nextCursor: body.next ?? null, datasetMonth: updated ? updated.slice(0, 7) : '', total: body.count };
  }

  private lead(o: CnpjaOffice): Lead {
    const ibge = String(o.address?.municipality ?? '');
    const municipio = findMunicipio(ibge);
    const isMei = o.company?.simei?.optant === true;
    const phones = (o.phones ?? []).filter((p) => p.area && p.number).map((p) => `+55${p.area}${p.number!.replace(/\D/g, '')}`);
    return {
      cnpj: o.taxId,
      razaoSocial: o.company?.name ?? '',
      nomeFantasia: o.alias ?? null,
      cnaePrincipal: String(o.mainActivity?.id ?? '').padStart(7, '0'),
      situacao: (o.status?.text ?? '').toUpperCase(),
      porte: isMei ? 'MEI' : (PORTE[o.company?.size?.acronym ?? ''] ?? 'DEMAIS'),
      isMei,
      address: {
        street: o.address?.street ?? '',
        number: o.address?.number ?? '',
        district: o.address?.district ?? '',
        city: municipio?.name ?? o.address?.city ?? '',
        uf: o.address?.state ?? municipio?.uf ?? '',
        postalCode: o.address?.zip ?? '',
        ibgeCode: ibge,
      },
      phones,
      email: o.emails?.[0]?.address ?? null,
    };
  }
}
