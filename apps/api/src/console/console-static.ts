import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';

/** Where `npm start` (`npm run build -w @carteiro/console`) writes the console: apps/console/dist, from src/ and dist/ alike. */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

// The console talks to this service only: scripts, styles and calls from here, images from here or data: URLs (QR codes).
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head><body>
<h1>The console is not built</h1>
<p>Build it with <code>npm run build -w @carteiro/console</code> (<code>npm start</code> does it), then reload this page.
The API itself works without it: <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * Serves the console's static build at `/console` (`/` redirects there): hashed files under
 * `/console/assets` are cached for a year as immutable, `index.html` is revalidated on every visit
 * (`no-cache`), so a new build is picked up at once. Without a build, `/console` answers 503 saying how to build it.
 */
export function registerConsole(app: Express, dir: string = process.env.CONSOLE_DIR ?? DEFAULT_CONSOLE_DIR): void {
  const index = join(dir, 'index.html');
  app.get('/', (_req, res) => res.redirect(302, '/console/'));
  app.use(
    '/console/assets',
    express.static(join(dir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      etag: false,
      index: false,
      fallthrough: true,
      setHeaders: (res) => res.setHeader('X-Content-Type-Options', 'nosniff'),
    }),
  );
  const page: express.RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Express matches /console and /console/ alike; the page's relative asset paths need the slash.
    const path = req.originalUrl.split('?')[0] ?? '';
    if (path === '/console') return res.redirect(301, '/console/');
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-cache');
    if (!existsSync(index)) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    res.sendFile(index, { cacheControl: false, lastModified: true });
  };
  // The console routes with the URL's #fragment, so only its index is served here; assets 404 when missing.
  app.get('/console/', page);
  app.get('/console/index.html', page);
}
