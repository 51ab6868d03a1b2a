// Builds the web console into controller/dist/console-app/, which the controller serves at
// /console/ (src/console/console-site.ts):
//
//   index.html                 names the current build's assets; served with no-cache
//   assets/main-<hash>.js      the app (Preact, uPlot and the API client bundled in), ES2022
//   assets/styles-<hash>.css   its styles, uPlot's included
//
// The names carry a hash of the content, so the controller caches them for a year. Nothing is
// fetched at run time. Run by `npm run build` and scripts/setup.mjs after tsc (which type-checks
// these sources); takes about a second.
import { build } from 'esbuild';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'console-app');
const staging = `${out}.new`;

await rm(staging, { recursive: true, force: true });
await mkdir(join(staging, 'assets'), { recursive: true });
const result = await build({
  absWorkingDir: here,
  entryPoints: { main: 'src/main.tsx', styles: 'src/styles.css' },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022', 'chrome111', 'firefox111', 'safari16.4'],
  outdir: join(staging, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const script = outputs.find((n) => /^main-.*\.js$/.test(n));
const styles = outputs.find((n) => /^styles-.*\.css$/.test(n));
if (!script || !styles) throw new Error(`build-console: outputs ${outputs.join(', ')} lack the script or the styles`);
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="platform-router" content="">
<title>platform console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/${styles}">
<script type="module" src="assets/${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The platform console needs JavaScript.</noscript>
</body>
</html>
`;
await writeFile(join(staging, 'index.html'), html);
// Swapped in whole: a controller serving meanwhile sees the old build or the new one.
await rm(`${out}.old`, { recursive: true, force: true });
await rename(out, `${out}.old`).catch((err) => {
  if (err.code !== 'ENOENT') throw err;
});
await rename(staging, out);
await rm(`${out}.old`, { recursive: true, force: true });
console.log(`build-console: ${script}, ${styles}`);
