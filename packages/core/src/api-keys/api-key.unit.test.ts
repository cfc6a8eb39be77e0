import { createHash } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { hashApiKey } from './api-key.js';

it('given a key, then its hash is the SHA-256 hex digest every stored key_hash was made with', () => {
  const key = 'ak_test_0123456789ABCDEFGHIJKLMNOPQRSTUV';
  expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
  expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
});
