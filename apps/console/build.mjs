// Builds the console into dist/: hashed, immutable assets under dist/assets and an index.html that
// names them. esbuild (already the repository's bundler for scripts) bundles Preact, papaparse and the
// SDK's client; the SDK's webhook helpers (node:crypto) are never imported by the console and are
// replaced by a stub so a browser build cannot pull them in. Fails when the first page's JavaScript
// grows past the budget (gzip).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const JS_BUDGET_GZIP_BYTES = 200 * 1024;

const here = dirname(fileURLToPath(import.meta.url));

/** Builds into `outDir` (default apps/console/dist) through a temporary folder, so a running server never serves half a build. */
export async function buildConsole({ outDir = join(here, 'dist'), quiet = false, budgetGzipBytes = JS_BUDGET_GZIP_BYTES } = {}) {
  const staging = `${outDir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: here,
    entryPoints: { console: 'app/main.tsx' },
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: join(staging, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    // The SDK from its source: the console builds on a fresh clone before (or without) `tsc -b` building the SDK's dist.
    alias: { '@carteiro/sdk': join(here, '../../packages/sdk/src/index.ts') },
    plugins: [
      {
        name: 'no-node-crypto',
        setup(b) {
          b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: 'node:crypto', namespace: 'stub' }));
          b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({
            contents: 'const no = () => { throw new Error("not in the browser"); }; export const createHmac = no, timingSafeEqual = no;',
          }));
        },
      },
    ],
  });
  const outputs = Object.entries(result.metafile.outputs).filter(([, o]) => o.entryPoint);
  const js = outputs.find(([file]) => file.endsWith('.js'));
  if (!js) throw new Error('the console build produced no JavaScript');
  const jsFile = relative(staging, join(here, js[0]));
  const cssFile = js[1].cssBundle ? relative(staging, join(here, js[1].cssBundle)) : undefined;
  const html = readFileSync(join(here, 'app/index.html'), 'utf8')
    .replace('<!--css-->', cssFile ? `<link rel="stylesheet" href="${cssFile}">` : '')
    .replace('<!--js-->', `<script type="module" src="${jsFile}"></script>`);
  writeFileSync(join(staging, 'index.html'), html);
  const gzipBytes = gzipSync(readFileSync(join(staging, jsFile)), { level: 9 }).length;
  writeFileSync(join(staging, 'build.json'), JSON.stringify({ js: jsFile, css: cssFile ?? null, jsGzipBytes: gzipBytes, budgetGzipBytes }, null, 2));
  if (gzipBytes > budgetGzipBytes) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`console JavaScript is ${(gzipBytes / 1024).toFixed(1)} kB gzip, over the ${budgetGzipBytes / 1024} kB budget`);
  }
  mkdirSync(dirname(outDir), { recursive: true });
  const old = `${outDir}.old-${process.pid}`;
  if (existsSync(outDir)) renameSync(outDir, old);
  renameSync(staging, outDir);
  rmSync(old, { recursive: true, force: true });
  if (!quiet) console.log(`console: ${jsFile} ${(gzipBytes / 1024).toFixed(1)} kB gzip (budget ${budgetGzipBytes / 1024} kB) → ${relative(process.cwd(), outDir) || '.'}`);
  return { outDir, jsFile, cssFile, jsGzipBytes: gzipBytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildConsole().catch((error) => {
    console.error(error.message ?? error);
    process.exit(1);
  });
}
