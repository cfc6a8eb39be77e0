import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { TransactionConflict } from '@carteiro/core';
import { errorHandler } from './error-handler.js';

describe('errorHandler', () => {
  it('given a transaction PostgreSQL rolled back to break a deadlock, then 503 SERVICE_UNAVAILABLE with Retry-After, not a 500 (nothing was written)', async () => {
    const logged: unknown[] = [];
    const app = express();
    app.post('/write', () => {
      throw new TransactionConflict(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    });
    app.use(errorHandler({ error: (obj) => logged.push(obj) }));

    const res = await request(app).post('/write');

    expect([res.status, res.headers['retry-after'], res.body.success, res.body.error.code]).toEqual([503, '1', false, 'SERVICE_UNAVAILABLE']);
    expect(logged).toEqual([]);
  });
});
