import { Ajv, type ValidateFunction } from 'ajv';
import * as formats from 'ajv-formats';
import { openApiPath } from '../document.js';

type FormatsPlugin = (ajv: Ajv) => Ajv;
const addFormats = ((formats as unknown as { default?: FormatsPlugin }).default ?? formats) as FormatsPlugin;

type Json = Record<string, unknown>;

const SCHEMA_REF = '#/components/schemas/';
const idOf = (name: string) => `urn:carteiro:schema:${name}`;

/**
 * Rewrites component references to ids ajv can resolve on their own, and (strict) closes every
 * object that lists its properties, so that a field a route answers but the document does not
 * describe fails the test. The document itself stays open: clients must tolerate new fields.
 */
function prepare(node: unknown, strict: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => prepare(item, strict));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF) ? idOf(value.slice(SCHEMA_REF.length)) : prepare(value, strict);
  }
  if (strict && out.properties && typeof out.properties === 'object' && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

/** Validates real HTTP answers against the response schemas of an OpenAPI document. */
export class ResponseValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    addFormats(this.ajv);
    const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
    for (const [name, schema] of Object.entries(schemas)) {
      this.ajv.addSchema({ ...(prepare(schema, true) as Json), $id: idOf(name) });
    }
  }

  /** The schema the document gives for this answer, or an error naming what is missing. */
  private schemaFor(method: string, expressPath: string, status: number): Json {
    const paths = this.document.paths as Record<string, Record<string, Json>>;
    const operation = paths[openApiPath(expressPath)]?.[method.toLowerCase()];
    if (!operation) throw new Error(`no operation ${method.toUpperCase()} ${expressPath} in the document`);
    let response = (operation.responses as Record<string, Json>)[String(status)];
    if (!response) throw new Error(`${method.toUpperCase()} ${expressPath} documents no ${status} response`);
    const ref = response.$ref as string | undefined;
    if (ref) {
      const name = ref.replace('#/components/responses/', '');
      response = ((this.document.components as Json).responses as Record<string, Json>)[name]!;
    }
    const schema = ((response.content as Record<string, Json> | undefined)?.['application/json'] as Json | undefined)?.schema as Json | undefined;
    if (!schema) throw new Error(`${method.toUpperCase()} ${expressPath} ${status} has no JSON schema`);
    return schema;
  }

  /** Problems of `value` against the named component schema, closed like answers are (an empty list when it conforms). */
  checkComponent(name: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(idOf(name));
    if (!validate) return [`no component schema ${name}`];
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${name}: ${e.instancePath || '(value)'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** Problems of `body` against the documented answer (an empty list when it conforms). */
  check(method: string, expressPath: string, status: number, body: unknown): string[] {
    const key = `${method} ${expressPath} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(prepare(this.schemaFor(method, expressPath, status), true) as Json);
      this.cache.set(key, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${key}: ${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
