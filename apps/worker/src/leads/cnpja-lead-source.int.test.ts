import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeHttpServer, type RecordedRequest } from '@carteiro/channels/testing';
import { isValidCnpj, LeadSourceError, type LeadSearchCriteria } from '@carteiro/core';
import { CnpjaLeadSource } from './cnpja-lead-source.js';

const office = (n: number) => ({
  taxId: ['11222333000181', '11444777000161'][n]!,
  alias: n === 0 ? 'Padaria Aurora' : null,
  updated: '2026-10-02T10:00:00.000Z',
  company: { name: `EMPRESA ${n} LTDA`, size: { acronym: n === 0 ? 'ME' : 'EPP' }, simei: { optant: n === 1 } },
  mainActivity: { id: 4721102, text: 'Padaria e confeitaria' },
  status: { id: 2, text: 'Ativa' },
  address: { municipality: 3550308, street: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zip: '01001000' },
  phones: n === 0 ? [{ area: '11', number: '987654321' }] : [],
  emails: n === 0 ? [{ address: 'contato@aurora.com.br' }] : [],
});

let server: FakeHttpServer;
let url: string;
const pages: Record<string, unknown> = {
  first: { next: 'page-2', limit: 1, count: 2, records: [office(0)] },
  'page-2': { next: null, limit: 1, count: 2, records: [office(1)] },
};

beforeAll(async () => {
  server = new FakeHttpServer((req: RecordedRequest) => {
    if (req.headers.authorization === 'bad-key') return { status: 401, body: { message: 'Unauthorized' } };
    if (req.path !== '/office') return { status: 404 };
    if (req.query.get('mainActivity.id.in') === '9999999') return { status: 503, body: { message: 'down' } };
    return { status: 200, body: pages[req.query.get('token') ?? 'first'] };
  });
  url = await server.start();
});
afterAll(() => server.stop());

const criteria: LeadSearchCriteria = { cnaes: ['4721102'], municipios: ['3550308'], ufs: [], includeMei: false, onlyWithPhone: true, onlyWithEmail: false, limit: 100 };

describe('the CNPJá lead source (against a local fake)', () => {
  it('searches offices by activity and IBGE municipality, maps them to leads and pages with the token', async () => {
    const source = new CnpjaLeadSource({ apiKey: 'key-1', baseUrl: url });
    const first = await source.search(criteria, null);
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('key-1');
    expect(Object.fromEntries(sent.query)).toEqual({
      limit: '100',
      'mainActivity.id.in': '4721102',
      'address.municipality.in': '3550308',
      'status.id.in': '2',
      'company.simei.optant.eq': 'false',
      'phones.ex': 'true',
    });
    expect(first).toMatchObject({ nextCursor: 'page-2', datasetMonth: '2026-10', total: 2 });
    expect(first.items[0]).toEqual({
      cnpj: '11222333000181',
      razaoSocial: 'EMPRESA 0 LTDA',
      nomeFantasia: 'Padaria Aurora',
      cnaePrincipal: '4721102',
      situacao: 'ATIVA',
      porte: 'ME',
      isMei: false,
      address: { street: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', uf: 'SP', postalCode: '01001000', ibgeCode: '3550308' },
      phones: ['+5511987654321'],
      email: 'contato@aurora.com.br',
    });
    expect(isValidCnpj(first.items[0]!.cnpj)).toBe(true);
    const second = await source.search(criteria, first.nextCursor);
    expect(server.requests.at(-1)!.query.get('token')).toBe('page-2');
    expect(second.nextCursor).toBeNull();
    expect(second.items[0]).toMatchObject({ porte: 'MEI', isMei: true, phones: [], email: null });
  });

  it('asks by state without municipalities', async () => {
    await new CnpjaLeadSource({ apiKey: 'key-1', baseUrl: url }).search({ ...criteria, municipios: [], ufs: ['SP', 'RJ'] }, null);
    expect(server.requests.at(-1)!.query.get('address.state.in')).toBe('SP,RJ');
  });

  it('fails the search on refused credentials and lets the job retry other failures', async () => {
    await expect(new CnpjaLeadSource({ apiKey: 'bad-key', baseUrl: url }).search(criteria, null)).rejects.toBeInstanceOf(LeadSourceError);
    const other = new CnpjaLeadSource({ apiKey: 'key-1', baseUrl: url }).search({ ...criteria, cnaes: ['9999999'] }, null);
    await expect(other).rejects.toThrow('HTTP 503');
    await expect(other).rejects.not.toBeInstanceOf(LeadSourceError);
  });
});
