import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApi, type TestApi } from '../testing/test-api.js';
import { API_KEY_SCHEME } from './api-docs.js';

let api: TestApi;

beforeAll(async () => {
  api = await createTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('the API reference where newcomers look', () => {
  it('serves the OpenAPI document at /openapi.json too, without a key, the same as /v1/openapi.json', async () => {
    const root = await request(api.app).get('/openapi.json');
    expect(root.status).toBe(200);
    expect(root.headers['content-type']).toMatch(/^application\/json/);
    expect(root.body).toMatchObject({ openapi: expect.stringMatching(/^3\.1/), info: { title: expect.any(String) } });
    expect(Object.keys(root.body.paths)).toContain('/v1/messages');

    const versioned = await request(api.app).get('/v1/openapi.json');
    expect(versioned.status).toBe(200);
    expect(root.text).toBe(versioned.text);
  });

  it("opens the docs page's Test Request with the API key's bearer scheme selected", async () => {
    const init = await request(api.app).get('/docs/assets/init.js');
    expect(init.status).toBe(200);
    const config = JSON.parse(/createApiReference\('[^']+', (\{.*\})\);/s.exec(init.text)![1]!) as {
      url: string;
      authentication?: { preferredSecurityScheme?: string };
    };
    expect(config.authentication?.preferredSecurityScheme).toBe(API_KEY_SCHEME);
    // The name is the document's scheme of company keys, a bearer token.
    const document = (await request(api.app).get(config.url)).body as { components: { securitySchemes: Record<string, unknown> } };
    expect(document.components.securitySchemes[API_KEY_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
