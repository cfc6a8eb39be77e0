import { createRequire } from 'node:module';
import type { Express, RequestHandler } from 'express';

const require = createRequire(import.meta.url);

/** Scalar's standalone browser bundle, served from node_modules: the page needs no network beyond this server. */
const rendererBundle = require.resolve('@scalar/api-reference/browser/standalone.js');

export const DOCS_PATH = '/docs';
export const OPENAPI_PATH = '/v1/openapi.json';
/** The same document where tools and people look first. */
export const ROOT_OPENAPI_PATH = '/openapi.json';
/** The security scheme of company API keys in the document (`components.securitySchemes`). */
export const API_KEY_SCHEME = 'apiKey';

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Carteiro API reference</title>
  </head>
  <body>
    <div id="carteiro-api-reference"></div>
    <script src="${DOCS_PATH}/assets/api-reference.js"></script>
    <script src="${DOCS_PATH}/assets/init.js"></script>
  </body>
</html>
`;

// Default fonts come from a CDN, telemetry and the AI agent call home: all off, so the page works offline.
// (The mount point is not `#api-reference`: the bundle would auto-mount a second, default-configured reference there.)
const init = `Scalar.createApiReference('#carteiro-api-reference', ${JSON.stringify({
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  hideClientButton: true,
  defaultOpenAllTags: true,
  agent: { disabled: true },
  // "Test Request" opens with the API key's bearer scheme selected: paste a key and send.
  authentication: { preferredSecurityScheme: API_KEY_SCHEME },
})});\n`;

/**
 * Everything on this page comes from this origin; the policy makes the browser refuse anything
 * else, should a renderer update ever try. Scalar's bundle injects its styles and uses inline
 * style attributes, hence 'unsafe-inline' for styles only.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const docsHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/**
 * The documentation page at `GET /docs`, and `GET /openapi.json` as another address of the public
 * `GET /v1/openapi.json`. Mounted on the app itself, before the routes and the `/v1` router, whose
 * first middleware demands an API key.
 */
export function registerApiDocs(app: Express): void {
  // GET /v1/openapi.json itself is a route definition (openapi/reference.routes.ts), registered after
  // this: the root address is rewritten to it, so both answer the same document with the same headers.
  app.get(ROOT_OPENAPI_PATH, (req, _res, next) => {
    req.url = OPENAPI_PATH;
    next();
  });
  app.get(DOCS_PATH, docsHeaders, (_req, res) => {
    res.type('html').send(page);
  });
  app.get(`${DOCS_PATH}/assets/init.js`, docsHeaders, (_req, res) => {
    res.type('application/javascript').send(init);
  });
  app.get(`${DOCS_PATH}/assets/api-reference.js`, docsHeaders, (_req, res, next) => {
    res.sendFile(rendererBundle, { maxAge: '1h', headers: { 'Content-Type': 'application/javascript; charset=utf-8' } }, (error) => {
      if (error) next(error);
    });
  });
}
