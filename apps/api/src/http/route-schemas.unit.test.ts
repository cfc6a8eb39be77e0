import { describe, expect, it } from '@jest/globals';
import { apiRoutes } from '../routes.js';
import { isInteger, schemaFields } from '../testing/request-fields.js';
import { requestSchemas } from './register-routes.js';
import { INT4_MAX } from './schema.js';
import { fieldWithNul } from './validation.js';

describe('the request schemas of every route', () => {
  it('give every integer a maximum its column (or JavaScript) holds', () => {
    const unbounded: string[] = [];
    for (const route of apiRoutes) {
      for (const { where, schema } of requestSchemas(route)) {
        const fields = [{ path: [], schema }, ...schemaFields(schema)];
        for (const field of fields.filter((f) => isInteger(f.schema))) {
          const maximum = field.schema.maximum;
          if (typeof maximum !== 'number' || !Number.isSafeInteger(maximum)) {
            unbounded.push(`${route.method.toUpperCase()} ${route.path} ${[where, ...field.path].join('.')}`);
          }
        }
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('bound the integers of the operator limits by PostgreSQL integer', () => {
    const admin = apiRoutes.find((r) => r.operationId === 'adminUpdateCompany')!;
    const properties = (admin.body!.schema as { properties: Record<string, { maximum?: number }> }).properties;
    for (const name of ['company_rpm', 'daily_limit', 'concurrent_campaigns_limit', 'avulso_balance']) expect([name, properties[name]?.maximum]).toEqual([name, INT4_MAX]);
    const setor = apiRoutes.find((r) => r.operationId === 'adminUpdateSetor')!;
    expect((setor.body!.schema as { properties: Record<string, { maximum?: number }> }).properties.warming_daily_limit?.maximum).toBe(INT4_MAX);
  });

  it('describe every path parameter, and every route has a unique operationId', () => {
    for (const route of apiRoutes) {
      for (const [, name] of route.path.matchAll(/:([A-Za-z_]+)/g)) expect([route.operationId, name, route.params?.[name!] !== undefined]).toEqual([route.operationId, name, true]);
    }
    expect(new Set(apiRoutes.map((r) => r.operationId)).size).toBe(apiRoutes.length);
  });
});

describe('fieldWithNul', () => {
  it('names the first value or key holding U+0000, however deep', () => {
    expect(fieldWithNul({ message: { text: 'a\u0000b' } })).toBe('message.text');
    expect(fieldWithNul({ recipients: [{ name: 'ok' }, { variables: { nome: '\u0000' } }] })).toBe('recipients.1.variables.nome');
    expect(fieldWithNul({ template_components: [{ ['k\u0000']: 1 }] })).toBe('template_components.0.k\\u0000');
    expect(fieldWithNul('\u0000')).toBe('(body)');
    expect(fieldWithNul({ text: 'no nul', n: 1, list: [null, true] })).toBeNull();
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(fieldWithNul(deep)?.startsWith('0.0.0')).toBe(true);
  });
});
