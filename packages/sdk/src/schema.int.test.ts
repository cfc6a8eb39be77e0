import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { buildOpenApiDocument } from '../../../apps/api/src/openapi/document.js';
import { SCHEMA_FILE, renderSchema } from '../codegen/render-schema.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

it('src/schema.ts is what the OpenAPI generator produces now (else: npm run generate -w @carteiro/sdk)', async () => {
  const committed = readFileSync(join(packageDir, SCHEMA_FILE), 'utf8');
  const fresh = await renderSchema(buildOpenApiDocument());
  // A plain comparison first: a diff of 7,000 lines helps nobody, the message says what to run.
  if (fresh !== committed) {
    const at = [...fresh].findIndex((char, i) => char !== committed[i]);
    throw new Error(`packages/sdk/${SCHEMA_FILE} is stale from character ${at}; run \`npm run generate -w @carteiro/sdk\` (npm install and npm run build do it too)`);
  }
  expect(fresh).toContain('"/v1/campaigns/{id}"');
});
