import type { ApiOperation } from '../operation.js';

/** The document itself: public, served outside the authenticated /v1 router (openapi/api-docs.ts). */
export const referenceOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description: 'Public (no key). The human-readable page is at /docs.',
    tag: 'Reference',
    auth: 'public',
    success: {
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
  },
];
