import { defineRoute } from '../http/route.js';
import { OpenApiDocumentJson } from '../http/tokens.js';

/** The document itself: public, on the app before the `/v1` router demands a key. The page at /docs is api-docs.ts. */
export const referenceRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/openapi.json',
    auth: 'public',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description: 'Public (no key). The human-readable page is at /docs.',
    tag: 'Reference',
    response: {
      status: 200,
      description: 'The OpenAPI 3.1 document of the API.',
      data: {
        type: 'object',
        required: ['openapi', 'info', 'paths'],
        properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
        additionalProperties: true,
      },
      raw: true,
    },
    handler({ res, use }) {
      res.type('application/json').setHeader('Cache-Control', 'no-cache');
      res.send(use<OpenApiDocumentJson>(OpenApiDocumentJson)());
    },
  }),
];
