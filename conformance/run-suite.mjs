// Runs the official MCP conformance client suite against ./client.ts (the app's own MCP client
// code) and prints the per-scenario table. Needs Node >= 22: `npm run suite` puts the `node`
// package's binary (a dependency of this folder) first on PATH.
// Usage: npm --prefix conformance run suite [-- --suite auth | --scenario initialize]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(`The conformance suite needs Node >= 22 (this is ${process.version}). Run it through "npm --prefix conformance run suite".`);
  process.exit(2);
}
if (!existsSync(path.join(root, 'node_modules', 'esbuild'))) {
  console.error('Install the app first (npm ci in the project root): the client is built from the app sources.');
  process.exit(2);
}
// Bundle client.ts with the app code it imports once, so the ~26 clients the suite starts in
// parallel do not each transpile the sources (timing scenarios such as sse-retry measure delays).
const { build } = await import(pathToFileURL(path.join(root, 'node_modules', 'esbuild', 'lib', 'main.js')).href);
const outfile = path.join(root, '.tmp', 'conformance-client.bundle.mjs');
await build({
  entryPoints: [path.join(here, 'client.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
// Warm Node's on-disk compile cache once, so the parallel clients start without compiling the
// bundle again (less CPU contention while timing scenarios run). The warm-up run exits with a
// usage error, having loaded every module.
const env = { ...process.env, NODE_COMPILE_CACHE: path.join(root, '.tmp', 'conformance-compile-cache') };
spawnSync(process.execPath, [outfile], { env, stdio: 'ignore' });
const args = process.argv.slice(2);
const selection = args.length ? args : ['--suite', 'all'];
const command = `${process.execPath} ${outfile}`;
const cli = path.join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const r = spawnSync(process.execPath, [cli, 'client', '--command', command, ...selection, '--timeout', '60000', '-o', path.join(here, 'results')], {
  cwd: root,
  env,
  stdio: ['ignore', 'inherit', 'inherit'],
});
process.exit(r.status ?? 1);
