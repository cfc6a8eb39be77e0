import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';

/** Where the generated types live, relative to packages/sdk. */
export const SCHEMA_FILE = 'src/schema.ts';

const HEADER = `${COMMENT_HEADER.trimEnd()}
/* Generated from the Carteiro OpenAPI document (apps/api/src/openapi) by \`npm run generate -w @carteiro/sdk\` (also run by npm install and npm run build); not committed. */

`;

/**
 * The TypeScript types of an OpenAPI document, exactly as `src/schema.ts` holds them. Used by the
 * generate script and by the test that checks the generated file is up to date.
 */
export async function renderSchema(document: Record<string, unknown>): Promise<string> {
  // openapi-typescript may annotate what it reads: give it a copy.
  const ast = await openapiTS(structuredClone(document) as unknown as Parameters<typeof openapiTS>[0], { silent: true });
  return `${HEADER}${astToString(ast)}`;
}
