#!/usr/bin/env node
/**
 * Native modules for the runtime about to start. better-sqlite3 (the conversation database) is
 * compiled against one runtime's ABI: plain Node (`npm test`, `npm run web`) and Electron
 * (`npm start`, `npm run dev`) differ. keytar uses N-API and loads in both.
 *
 *   node scripts/native-abi.mjs node      rebuild for this Node only if the module does not load
 *   node scripts/native-abi.mjs electron  rebuild for Electron (electron-builder install-app-deps)
 *
 * Which runtime the module was last built for is recorded in node_modules/.openprogram-native-abi,
 * so switching back and forth rebuilds only when needed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const marker = path.join(root, 'node_modules', '.openprogram-native-abi');
const target = process.argv[2];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function lastBuiltFor() {
  return existsSync(marker) ? readFileSync(marker, 'utf8').trim() : 'node';
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** Whether better-sqlite3 loads in this Node (a load error of the binary itself means another ABI). */
function loadsInNode() {
  try {
    const Database = createRequire(path.join(root, 'package.json'))('better-sqlite3');
    new Database(':memory:').close();
    return true;
  } catch (err) {
    if (err && err.code === 'ERR_DLOPEN_FAILED') return false;
    throw err;
  }
}

if (target === 'node') {
  if (lastBuiltFor() === 'node' && loadsInNode()) process.exit(0);
  console.log('Rebuilding better-sqlite3 for Node (it was built for Electron) …');
  run(npm, ['rebuild', 'better-sqlite3']);
  writeFileSync(marker, 'node\n');
} else if (target === 'electron') {
  if (lastBuiltFor() === 'electron') process.exit(0);
  console.log('Rebuilding native modules for Electron (electron-builder install-app-deps) …');
  run(npx, ['electron-builder', 'install-app-deps']);
  writeFileSync(marker, 'electron\n');
} else {
  console.error('usage: node scripts/native-abi.mjs node|electron');
  process.exit(2);
}
