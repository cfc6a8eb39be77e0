import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from '@jest/globals';
import { buildOpenApiDocument } from './document.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
/** Where the document is written for the linter; `.redocly.lint-ignore.yaml` names this path. */
const LINTED_DOCUMENT = 'node_modules/.cache/carteiro/openapi.json';

it('is lint-clean under the recommended-strict rules of Redocly CLI (redocly.yaml)', async () => {
  const file = join(root, LINTED_DOCUMENT);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
  const run = await promisify(execFile)(
    join(root, 'node_modules/.bin/redocly'),
    ['lint', '--config', 'redocly.yaml', '--format', 'json', LINTED_DOCUMENT],
    { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
  ).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string; stderr?: string }) => error.stdout || `{"error": ${JSON.stringify(error.stderr)}}`,
  );
  const report = JSON.parse(run) as { totals?: { errors: number; warnings: number }; problems?: { ruleId: string; message: string; location: { pointer: string }[] }[] };
  // Warnings count too: the document must be clean, not merely valid.
  expect((report.problems ?? []).map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
}, 60_000);
