// Decorators of the controllers whose request schemas the document embeds need the metadata polyfill.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../../../apps/api/src/openapi/document.js';
import { SCHEMA_FILE, renderSchema } from './render-schema.js';

/** Writes src/schema.ts from the document the API serves, built in process (no server). */
export async function generate(packageDir: string): Promise<string> {
  const file = join(packageDir, SCHEMA_FILE);
  writeFileSync(file, await renderSchema(buildOpenApiDocument()));
  return file;
}
