/**
 * Electron smoke test: launch the built app (`out/main/index.js`) with Playwright's `_electron`,
 * check that the window opens and that the renderer sees only the contract bridge
 * (`window.openprogram`), never Node (`require`, `process`).
 *
 * Runs only where the Electron binary is installed. With ELECTRON_SKIP_BINARY_DOWNLOAD=1 there is
 * none, and the test is skipped with a plain message on stdout and in the report.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { _electron, expect, test } from '@playwright/test';
import { ROOT, tempDir } from './helpers.js';

const SKIP_REASON = 'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1): Electron smoke test skipped';

/** The Electron executable, or null when the binary was not downloaded. */
function electronBinary(): string | null {
  const pkgDir = path.join(ROOT, 'node_modules/electron');
  const pathTxt = path.join(pkgDir, 'path.txt');
  if (!existsSync(pathTxt) && !process.env.ELECTRON_OVERRIDE_DIST_PATH) return null;
  try {
    // The electron package's main export is the executable's path (it throws when not installed).
    const bin = createRequire(path.join(ROOT, 'package.json'))('electron') as unknown;
    if (typeof bin === 'string' && existsSync(bin)) return bin;
  } catch {
    // not installed correctly
  }
  const fallback = existsSync(pathTxt) ? path.join(pkgDir, 'dist', readFileSync(pathTxt, 'utf8').trim()) : '';
  return fallback && existsSync(fallback) ? fallback : null;
}

test('Electron: the window opens with the contract bridge and no Node in the renderer', async () => {
  const bin = electronBinary();
  if (!bin) {
    process.stdout.write(`${SKIP_REASON}\n`);
    test.skip(true, SKIP_REASON);
    return;
  }
  const mainJs = path.join(ROOT, 'out/main/index.js');
  expect(existsSync(mainJs), 'out/main/index.js must be built (npx electron-vite build)').toBe(true);
  // better-sqlite3 is compiled for one runtime at a time: Electron's for this test, Node's again
  // afterwards for the rest of the suite (scripts/native-abi.mjs).
  const abi = (runtime: 'electron' | 'node'): void => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/native-abi.mjs'), runtime], { cwd: ROOT, stdio: 'inherit' });
    expect(r.status, `native modules for ${runtime}`).toBe(0);
  };
  test.info().setTimeout(600_000);
  abi('electron');

  const stateDir = tempDir('electron');
  // Chromium refuses to run as root without --no-sandbox (containers); elsewhere keep the sandbox.
  const args = [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), mainJs];
  const app = await _electron
    .launch({
      executablePath: bin,
      args,
      cwd: ROOT,
      env: { ...process.env, OPENPROGRAM_STATE_DIR: stateDir, ELECTRON_ENABLE_LOGGING: '1' },
      timeout: 60_000,
    })
    .catch((err: unknown) => {
      abi('node');
      throw err;
    });
  try {
    const win = await app.firstWindow();
    await win.waitForLoadState('domcontentloaded');
    await expect(win).toHaveTitle(/OpenProgram/);
    await expect(win.getByRole('tab', { name: 'Chat' })).toBeVisible();

    const seen = await win.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      const bridge = w.openprogram as Record<string, unknown> | undefined;
      return {
        bridge: typeof bridge,
        invoke: typeof bridge?.invoke,
        on: typeof bridge?.on,
        require: typeof w.require,
        process: typeof w.process,
        module: typeof w.module,
      };
    });
    expect(seen).toEqual({ bridge: 'object', invoke: 'function', on: 'function', require: 'undefined', process: 'undefined', module: 'undefined' });

    // The bridge really reaches main.
    const info = await win.evaluate(async () => {
      const api = (window as unknown as { openprogram: { invoke(c: string, i: unknown): Promise<{ ok: boolean; value?: { shell: string } }> } }).openprogram;
      return api.invoke('app.info', {});
    });
    expect(info.ok).toBe(true);
    expect(info.value?.shell).toBe('electron');

    const title = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.getTitle());
    expect(title).toMatch(/OpenProgram/);
  } finally {
    await app.close();
    rmSync(stateDir, { recursive: true, force: true });
    abi('node');
  }
});
