import type { Response } from 'express';

/** Sends the success envelope `{ success: true, data, meta? }`. */
export function ok(res: Response, data: unknown, status = 200, meta?: Record<string, unknown>): void {
  res.status(status).json(meta ? { success: true, data, meta } : { success: true, data });
}
