import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends the success envelope `{ success: true, data, meta? }`. */
export function ok(res: Response, data: unknown, status = 200, meta?: Record<string, unknown>): void {
  sendJson(res, meta ? { success: true, data, meta } : { success: true, data }, status);
}

/**
 * `res.status(status).json(body)` for the answers of the routes, without Express's general path where it
 * cannot matter: with no conditional request header (`If-None-Match`, `If-Modified-Since`), no
 * Content-Type chosen by the handler and a status that carries a body, Express would stringify, set the
 * same two headers and end; its way there (the Content-Type parsed and formatted again, the ETag setting,
 * freshness, a Buffer copy of answers over 1 kB) was a few % of a read's CPU. Everything else goes to Express.
 */
export function sendJson(res: Response, body: unknown, status: number): void {
  const headers = res.req.headers;
  const text = JSON.stringify(body) as string | undefined;
  if (
    text === undefined ||
    status === 204 ||
    status === 205 ||
    status === 304 ||
    headers['if-none-match'] !== undefined ||
    headers['if-modified-since'] !== undefined ||
    res.hasHeader('Content-Type')
  ) {
    res.status(status).json(body);
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
}
