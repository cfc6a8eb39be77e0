// Keeps package-lock.json installable with `npm ci` on every platform.
//
// Some native packages (@swc/core, unrs-resolver) publish one optional package per platform. When
// the registry a lockfile is written against lacks some of them (mirrors often carry only the
// platforms they serve), npm leaves them out of the lockfile and `npm ci` then refuses the
// lockfile as out of sync. This adds the missing optional entries with their platform fields, so
// npm skips them on other platforms exactly as it would with complete metadata.
// Run after changing dependencies: `node scripts/lockfile-platform-entries.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const platformOf = (suffix) => {
  const [os, cpu, abi] = suffix.split('-');
  const entry = { cpu: [cpu], os: [os === 'android' || os === 'openharmony' ? os : os] };
  if (abi?.startsWith('musl')) entry.libc = ['musl'];
  else if (abi?.startsWith('gnu')) entry.libc = ['glibc'];
  return entry;
};

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const prefix = path ? `${path}/node_modules/` : 'node_modules/';
    const candidates = [`${prefix}${name}`, `node_modules/${name}`];
    if (candidates.some((c) => packages[c])) continue;
    const match = /^(@swc\/core|@unrs\/resolver-binding)-(.+)$/.exec(name);
    if (!match) continue;
    packages[`node_modules/${name}`] = {
      version,
      ...platformOf(match[2]),
      ...(pkg.dev ? { dev: true } : {}),
      license: pkg.license ?? 'MIT',
      optional: true,
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries`);
