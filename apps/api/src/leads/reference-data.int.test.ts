import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getCnae, getMunicipalities, getTimezoneByState } from '@brazilian-utils/brazilian-utils';
import { allCnaes, allMunicipios } from '@carteiro/core';

const root = new URL('../../../../', import.meta.url);
const committed = (name: string) => readFileSync(new URL(`packages/core/src/leads/reference/${name}`, root), 'utf8');

// The committed reference data (packages/core/src/leads/reference/*.data.ts) against the package it was generated from.
describe('committed lead reference data', () => {
  it('is byte for byte what scripts/generate-lead-reference-data.mjs generates from the installed package', () => {
    // A plain Node process: enumerating the 10^7 codes takes seconds there, much longer inside Jest's VM.
    const code = `import('./scripts/generate-lead-reference-data.mjs').then((m) => process.stdout.write(JSON.stringify([m.renderCnaes(m.enumerateCnaes()), m.renderMunicipios(m.enumerateMunicipios())])))`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } });
    const [cnaes, municipios] = JSON.parse(out) as [string, string];
    expect(committed('cnae.data.ts') === cnaes).toBe(true);
    expect(committed('municipio.data.ts') === municipios).toBe(true);
  }, 60_000);

  it('agrees with the package lookups: 1,332 subclasses, 5,571 municipalities with the state time zone', () => {
    expect(allCnaes()).toHaveLength(1332);
    for (const c of allCnaes()) expect(getCnae(c.code)).toEqual({ code: c.code, description: c.description });
    const expected = getMunicipalities()
      .map((m) => ({ ibgeCode: m.code, name: m.name, uf: m.stateCode, timezone: getTimezoneByState(m.stateCode) }))
      .sort((a, b) => (a.ibgeCode < b.ibgeCode ? -1 : 1));
    expect(allMunicipios()).toEqual(expected);
  });
});
