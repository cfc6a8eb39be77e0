// npm run generate -w @carteiro/sdk: regenerates src/schema.ts (a build product, not committed) from the OpenAPI generator's source
// (apps/api/src/openapi), without a server and without building anything first. esbuild bundles the
// TypeScript of codegen/generate.ts and of the workspace packages it reaches; npm packages stay external.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(packageDir, '../..');

// `--if-missing` (npm start, npm test): only when an install skipped the root `prepare` script (`--ignore-scripts`).
if (process.argv.includes('--if-missing') && existsSync(join(packageDir, 'src/schema.ts'))) process.exit(0);
const outfile = join(root, 'node_modules/.cache/carteiro/sdk-generate.mjs');
mkdirSync(dirname(outfile), { recursive: true });

/** Subpath exports of workspace packages (their package.json `exports`), by source file. */
const SUBPATHS = { 'core/webhook-signature': 'webhooks/webhook-signature.ts' };

/** `@carteiro/<name>` (and `/testing`) to its TypeScript source, as jest and tsconfig.check.json map it. */
const workspaceSources = {
  name: 'carteiro-workspace-sources',
  setup(b) {
    b.onResolve({ filter: /^@carteiro\/[a-z-]+(\/[a-z-]+)?$/ }, ({ path }) => {
      const [, name, sub] = /^@carteiro\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(path);
      const src = ['packages', 'apps'].map((dir) => join(root, dir, name, 'src')).find((dir) => existsSync(dir));
      if (!src) return { errors: [{ text: `no workspace package ${path}` }] };
      const entry = sub === undefined ? 'index.ts' : sub === 'testing' ? 'testing/index.ts' : SUBPATHS[`${name}/${sub}`];
      if (!entry) return { errors: [{ text: `unknown subpath ${path}` }] };
      return { path: join(src, entry) };
    });
    b.onResolve({ filter: /^[^./]/ }, ({ path }) => (path.startsWith('@carteiro/') ? undefined : { path, external: true }));
  },
};

await build({
  entryPoints: [join(packageDir, 'codegen/generate.ts')],
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile,
  logLevel: 'warning',
  plugins: [workspaceSources],
});

const { generate } = await import(pathToFileURL(outfile).href);
const file = await generate(packageDir);
console.log(`wrote ${file}`);
