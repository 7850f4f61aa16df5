/**
 * End-to-end helpers: run the browser shell (the real app core under Node, serving the built
 * renderer) as a child process, open it in Chromium, and drive the UI the way a user does.
 *
 * The shell is started in its own process group so that, after it exits, any process it left
 * behind (an MCP server it failed to close) is found and reported — the app promises to leave no
 * child process behind on shutdown (docs/ARCHITECTURE.md "Readiness").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The filesystem MCP server (a devDependency), run with plain `node`. */
export const FS_SERVER = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
/** The hand-written bash stdio server fixture. */
export const BASH_SERVER = path.join(ROOT, 'test/fixtures/bash-server.sh');
/** Where screenshots go. */
export const SCREENSHOTS = path.join(ROOT, 'artifacts/screenshots');

const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const SHELL_ENTRY = path.join(ROOT, 'main/shell/browser-shell.ts');

/** A fresh temporary directory. */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `openprogram-e2e-${prefix}-`));
}

/** Quote one argument for the Add-server command line (POSIX single quotes). */
export function quoteArg(a: string): string {
  return a !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/** Join argv into a command line the app's splitter reads identically. */
export function commandLine(argv: string[]): string {
  return argv.map(quoteArg).join(' ');
}

/** Pids (with their command lines) of every live process in a process group (Linux /proc). */
export function processGroupMembers(pgid: number): Array<{ pid: number; cmd: string }> {
  const out: Array<{ pid: number; cmd: string }> = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      // Fields after the parenthesised comm: state ppid pgrp …
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const state = rest[0];
      const pgrp = Number(rest[2]);
      if (pgrp !== pgid || state === 'Z') continue;
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      out.push({ pid: Number(e), cmd });
    } catch {
      // The process went away while we looked.
    }
  }
  return out;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A running browser shell child process. */
export class ShellProcess {
  /** Everything the shell wrote to stdout and stderr (for diagnostics). */
  output = '';
  private exited: Promise<number | null>;
  private exitCode: number | null | undefined = undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly stateDir: string,
    readonly url: string,
    output: string,
  ) {
    this.output = output;
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else
        child.once('exit', (code) => {
          this.exitCode = code;
          resolve(code);
        });
    });
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  /** The shell's process id (also its process group id). */
  get pid(): number {
    return this.child.pid!;
  }

  /** The origin the renderer is served from. */
  get origin(): string {
    return new URL(this.url).origin;
  }

  /**
   * Start the browser shell (`tsx main/shell/browser-shell.ts`) on a random loopback port.
   * Resolves once it printed its `open: <url>` line.
   * @param stateDir reuse a state dir (restart); a fresh temp dir otherwise.
   * @param port a fixed port (a restart on the same port); 0 = any free port.
   */
  static async start(stateDir: string = tempDir('state'), timeoutMs = 30_000, port = 0): Promise<ShellProcess> {
    const child = spawn(TSX, [SHELL_ENTRY], {
      cwd: ROOT,
      // The keychain is tested by its own suite; e2e runs never write into a developer's real keychain.
      env: { ...process.env, OPENPROGRAM_STATE_DIR: stateDir, OPENPROGRAM_PORT: String(port), OPENPROGRAM_DISABLE_KEYCHAIN: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: leftovers can be found and cleaned up
    });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`The browser shell did not print its URL within ${timeoutMs} ms. Output:\n${out}`));
      }, timeoutMs);
      const onData = (d: Buffer): void => {
        out += d.toString();
        const m = /^open: (http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)\s*$/m.exec(out);
        if (m) {
          cleanup();
          resolve(m[1]!);
        }
      };
      const onErr = (d: Buffer): void => {
        out += d.toString();
      };
      const onExit = (code: number | null, signal: string | null): void => {
        cleanup();
        reject(new Error(`The browser shell exited (code ${code}, signal ${signal}) before it was ready. Output:\n${out}`));
      };
      const onSpawnError = (err: Error): void => {
        cleanup();
        reject(err);
      };
      function cleanup(): void {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onErr);
        child.off('exit', onExit);
        child.off('error', onSpawnError);
      }
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onErr);
      child.once('exit', onExit);
      child.once('error', onSpawnError);
    }).catch((err) => {
      if (child.pid) killGroup(child.pid, 'SIGKILL');
      throw err;
    });
    return new ShellProcess(child, stateDir, url, out);
  }

  /**
   * Stop the shell like a user quitting: SIGTERM, wait for it to exit. Then every process still in
   * its process group (an MCP server it failed to close) is killed and returned, so callers can
   * assert that none remained.
   * @returns the exit code and the leftovers that had to be killed.
   */
  async stop(timeoutMs = 15_000): Promise<{ code: number | null; leftovers: Array<{ pid: number; cmd: string }> }> {
    if (this.exitCode === undefined) {
      try {
        process.kill(this.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const code = await Promise.race([this.exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
      if (code === 'timeout') {
        const leftovers = processGroupMembers(this.pid);
        killGroup(this.pid, 'SIGKILL');
        await this.exited;
        throw new Error(`The browser shell did not exit within ${timeoutMs} ms of SIGTERM. Processes: ${JSON.stringify(leftovers)}\nOutput:\n${this.output}`);
      }
    }
    // Children closed by the app may need a moment to be reaped after the shell exits.
    let leftovers = processGroupMembers(this.pid);
    for (let i = 0; i < 20 && leftovers.length; i++) {
      await sleep(100);
      leftovers = processGroupMembers(this.pid);
    }
    if (leftovers.length) {
      killGroup(this.pid, 'SIGKILL');
      await sleep(100);
    }
    return { code: this.exitCode ?? null, leftovers };
  }
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // no such group
  }
}

/**
 * Open the app in a page (a full load, even if the page is already on the same origin: the token
 * travels in the URL fragment, which alone would not reload the document).
 */
export async function openApp(page: Page, shell: ShellProcess): Promise<void> {
  await page.goto('about:blank');
  await page.goto(shell.url);
  await expect(page.getByRole('tab', { name: 'Chat' })).toBeVisible();
  await expect(page).toHaveTitle(/OpenProgram/);
}

/** A managed shell for one test: restartable with the same state dir, always stopped at the end. */
export interface ShellHandle {
  current: ShellProcess;
  readonly stateDir: string;
  /**
   * Stop the running shell (asserting it left no process behind) and start a new one on the same
   * state dir (and, with `samePort`, on the same port).
   */
  restart(opts?: { samePort?: boolean }): Promise<ShellProcess>;
}

/** `test` with a `shell` fixture: a fresh browser shell per test, cleanly stopped afterwards. */
export const test = base.extend<{ shell: ShellHandle }>({
  // Playwright reads the fixture's dependencies from the destructuring pattern: it must be `{}`.
  // eslint-disable-next-line no-empty-pattern
  shell: async ({}, use, testInfo) => {
    const stateDir = tempDir('state');
    const handle: ShellHandle = {
      current: await ShellProcess.start(stateDir),
      stateDir,
      async restart(opts = {}) {
        const port = opts.samePort ? Number(new URL(handle.current.url).port) : 0;
        const { leftovers } = await handle.current.stop();
        expect(leftovers, 'processes left behind by the browser shell on shutdown').toEqual([]);
        handle.current = await ShellProcess.start(stateDir, 30_000, port);
        return handle.current;
      },
    };
    let stopped: Awaited<ReturnType<ShellProcess['stop']>> | null = null;
    try {
      await use(handle);
    } finally {
      try {
        stopped = await handle.current.stop();
      } finally {
        await testInfo.attach('browser-shell-output', { body: handle.current.output, contentType: 'text/plain' });
        rmSync(stateDir, { recursive: true, force: true });
      }
    }
    expect(stopped.leftovers, 'processes left behind by the browser shell on shutdown').toEqual([]);
  },
});

export { expect };

// ---- UI steps -------------------------------------------------------------------------------

/** Go to Settings and pick a section. */
export async function openSettings(page: Page, section: 'MCP servers' | 'Model'): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.locator('.settings-nav').getByRole('button', { name: section, exact: true }).click();
  await expect(page.getByRole('heading', { name: section === 'Model' ? 'Model' : 'MCP servers', exact: true })).toBeVisible();
}

/** Go to the Chat tab. */
export async function openChat(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Chat' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

/** Settings → Model: fill and save. */
export async function configureModel(page: Page, opts: { baseUrl: string; model: string; apiKey?: string }): Promise<void> {
  await openSettings(page, 'Model');
  await page.getByLabel('Base URL').fill(opts.baseUrl);
  await page.getByLabel('Model name').fill(opts.model);
  if (opts.apiKey !== undefined) await page.getByLabel('API key').fill(opts.apiKey);
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved.');
}

/** The Add-server form (opened if needed). */
export async function openAddServerForm(page: Page): Promise<Locator> {
  const form = page.getByRole('form', { name: 'Add server' });
  if (!(await form.isVisible())) await page.getByRole('button', { name: 'Add server' }).click();
  await expect(form).toBeVisible();
  return form;
}

/** Fill the Add-server form (local command) and submit it; does not wait for the outcome. */
export async function submitLocalServer(page: Page, opts: { name: string; command: string; env?: Array<[string, string]> }): Promise<Locator> {
  const form = await openAddServerForm(page);
  await form.getByLabel('Server name').fill(opts.name);
  await form.getByLabel('Command').fill(opts.command);
  for (const [i, [k, v]] of (opts.env ?? []).entries()) {
    await form.getByRole('button', { name: '+ Add variable' }).click();
    await form.getByLabel(`Variable name ${i + 1}`).fill(k);
    await form.getByLabel(`Variable value ${i + 1}`).fill(v);
  }
  await form.getByRole('button', { name: 'Add server' }).click();
  return form;
}

/**
 * Fill the Add-server form for a remote Streamable HTTP server and submit it (Settings → MCP
 * servers must be open); does not wait for the outcome.
 */
export async function submitRemoteServer(page: Page, opts: { name: string; url: string }): Promise<Locator> {
  const form = await openAddServerForm(page);
  await form.getByLabel('Server name').fill(opts.name);
  await form.getByLabel('Server type').selectOption({ label: 'Remote URL (Streamable HTTP)' });
  await form.getByLabel('URL').fill(opts.url);
  await form.getByRole('button', { name: 'Add server' }).click();
  return form;
}

/** What the window's IPC socket tells a test that holds replies ({@link holdReplies}). */
export interface HeldReplies {
  /** Replies held so far. */
  held(): number;
  /** Held replies passed on to the window after {@link release}. */
  delivered(): number;
  /** Pass every held reply on (and the later ones at once). */
  release(): void;
}

/**
 * Route the window's IPC socket (the browser shell's `/ipc`) through the test: replies to
 * `channel` are held until `release()`, everything else passes at once. `onEvent` sees each event
 * as it is passed to the window. Call before the page opens the app.
 */
export async function holdReplies(page: Page, channel: string, onEvent: (event: string, payload: unknown) => void = () => undefined): Promise<HeldReplies> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  let held = 0;
  let delivered = 0;
  await page.routeWebSocket(/\/ipc\?token=/, (ws) => {
    const server = ws.connectToServer();
    const ids = new Set<number>();
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { id?: number; channel?: string };
      if (msg.channel === channel && typeof msg.id === 'number') ids.add(msg.id);
      server.send(m);
    });
    server.onMessage((m) => {
      const msg = JSON.parse(String(m)) as { id?: number; event?: string; payload?: unknown };
      if (typeof msg.id === 'number' && ids.has(msg.id)) {
        held++;
        void released.then(() => {
          ws.send(m);
          delivered++;
        });
        return;
      }
      ws.send(m);
      if (msg.event) onEvent(msg.event, msg.payload);
    });
  });
  return { held: () => held, delivered: () => delivered, release: () => release() };
}

/** Wait two animation frames: what the window just received is applied and rendered. */
export async function nextPaint(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Settings → MCP servers → Add server, expecting success (the form closes, the card appears). */
export async function addLocalServer(page: Page, opts: { name: string; command: string; env?: Array<[string, string]> }): Promise<Locator> {
  await openSettings(page, 'MCP servers');
  const form = await submitLocalServer(page, opts);
  await expect(form).toBeHidden();
  const card = serverCard(page, opts.name);
  await expect(card).toBeVisible();
  return card;
}

/** The card of one server. */
export function serverCard(page: Page, name: string): Locator {
  return page.getByTestId(`server-${name}`);
}

/** Wait until a server card shows a status. */
export async function expectStatus(card: Locator, status: string | RegExp, timeout = 30_000): Promise<void> {
  try {
    await expect(card.getByTestId('server-status')).toHaveText(status, { timeout });
  } catch (err) {
    // Say what the server's log held: a status that never came is otherwise hard to explain
    // from a CI run (best effort, a few seconds at most).
    const log = await serverLogText(card).catch((e: unknown) => `(its log could not be read: ${(e as Error).message})`);
    (err as Error).message += `\n\nThe server's log:\n${log}`;
    throw err;
  }
}

/** The text of a server card's Logs (opened through its actions). */
async function serverLogText(card: Locator): Promise<string> {
  const logs = card.getByTestId('server-logs');
  if (!(await logs.isVisible())) await (await cardAction(card, 'Logs')).click({ timeout: 3000 });
  return await logs.innerText({ timeout: 3000 });
}

/** Type a message in the chat and send it with the Send button. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/**
 * Settings → Tool permissions: choose the default approval mode by its label (e.g. 'Never ask'
 * for tests about something else than permissions, whose tools would otherwise ask first).
 */
export async function setApprovalMode(page: Page, label: 'Ask for every tool call' | 'Ask unless the tool is read-only (default)' | 'Never ask'): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.locator('.settings-nav').getByRole('button', { name: 'Tool permissions', exact: true }).click();
  const radio = page.getByRole('radio', { name: label });
  await radio.click();
  await expect(radio).toBeChecked();
}

/**
 * Settings → Model: save a profile with the given fields (a new one when `asNew`, else the form as
 * it is — the first profile on a fresh state dir). `acceptsImages` sets the checkbox explicitly;
 * `contextWindow` is in tokens; `apiKey` is stored with the profile.
 */
export async function saveProfile(
  page: Page,
  opts: { name: string; baseUrl: string; model: string; acceptsImages?: boolean; contextWindow?: number; asNew?: boolean; apiKey?: string },
): Promise<void> {
  await openSettings(page, 'Model');
  if (opts.asNew) await page.getByRole('button', { name: '+ New profile' }).click();
  await page.getByLabel('Profile name').fill(opts.name);
  await page.getByLabel('Base URL').fill(opts.baseUrl);
  await page.getByLabel('Model name').fill(opts.model);
  if (opts.apiKey !== undefined) await page.getByLabel('API key').fill(opts.apiKey);
  if (opts.contextWindow !== undefined) await page.getByLabel('Context window (tokens)').fill(String(opts.contextWindow));
  if (opts.acceptsImages !== undefined) await page.getByLabel(/Model accepts images/).setChecked(opts.acceptsImages);
  await page.getByRole('button', { name: 'Save model' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved.');
  await expect(page.getByTestId(`profile-${opts.name}`)).toBeVisible();
}

/**
 * A server card's action button by its accessible name. Only the primary action (Tools, or Sign
 * in) is in view; the others are behind the card's "more" button, which is opened first when the
 * action is not visible (any language: found by its `aria-haspopup`).
 */
export async function cardAction(card: Locator, name: string, opts: { exact?: boolean } = {}): Promise<Locator> {
  const button = card.getByRole('button', { name, ...opts });
  if (!(await button.isVisible())) await card.locator('.server-actions > button[aria-haspopup]').click();
  return button;
}
