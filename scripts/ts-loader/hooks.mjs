// Module hooks that let a child `node` process run this repository's TypeScript sources directly
// (as jest does): `@carteiro/<pkg>` maps to its `src`, `./x.js` to `./x.ts`, and .ts files are
// stripped of their types (legacy decorators kept) by esbuild. Used by tests that start real processes
// (killed workers, scale-out, chaos) and by `npm run bench`: `node --import ./scripts/ts-loader/register.mjs file.ts`.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { transformSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function resolve(specifier, context, next) {
  const pkg = /^@carteiro\/([a-z-]+)(\/testing)?$/.exec(specifier);
  if (pkg) {
    for (const base of ['packages', 'apps']) {
      const file = path.join(root, base, pkg[1], 'src', pkg[2] ? 'testing/index.ts' : 'index.ts');
      if (existsSync(file)) return { url: pathToFileURL(file).href, shortCircuit: true };
    }
  }
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const file = path.resolve(path.dirname(fileURLToPath(context.parentURL)), specifier.slice(0, -3) + '.ts');
    if (existsSync(file)) return { url: pathToFileURL(file).href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const { code } = transformSync(readFileSync(file, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    target: 'es2022',
    sourcefile: file,
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
  });
  return { format: 'module', source: code, shortCircuit: true };
}
