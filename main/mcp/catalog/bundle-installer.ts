/**
 * The server catalog's one job here: the two steps of installing a bundle from the window —
 * look at the file (checked, held in memory under a random token), then install it under a
 * server name with the user's answers: unpack into `<state dir>/bundles/`, build the config, check
 * its runtime, add it through the host (docs/ARCHITECTURE.md "Server catalog", bundles).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { BundlePreview, ServerView } from '../../../preload/contract/index.js';
import type { McpHost } from '../host.js';
import { isValidServerName } from '../../../preload/contract/rules/index.js';
import { BundleError, bundleConfig, inspectBundle, unpackBundle, verifySha256, type InspectedBundle } from './bundle.js';
import type { FieldValues } from './mapping.js';
import { networkErrorCode } from './reasons.js';
import { checkRuntime } from './runtime.js';

/** Largest bundle file accepted, bytes. */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;
/** Bundles looked at and not installed yet that are kept (the oldest is dropped). */
const MAX_PENDING = 4;

/**
 * Download a registry entry's bundle (https, or http on loopback; at most 64 MB and 2 minutes)
 * and check it against the entry's `fileSha256` before anything else looks at it.
 * @throws BundleError
 */
export async function downloadBundle(url: string, sha256: string, fetchImpl: typeof fetch = globalThis.fetch, timeoutMs = 120_000): Promise<Uint8Array> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    const host = hostOf(url);
    const res = await fetchImpl(url, { signal: ctl.signal }).catch((err: unknown) => {
      throw new BundleError({ code: 'bundle_unreachable', host, error: ctl.signal.aborted ? 'timeout' : networkErrorCode(err) });
    });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new BundleError({ code: 'bundle_http_status', host, status: res.status });
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (;;) {
      const r = reader
        ? await reader.read().catch((err: unknown) => {
            throw new BundleError({ code: 'bundle_unreachable', host, error: ctl.signal.aborted ? 'timeout' : networkErrorCode(err) });
          })
        : { done: true as const, value: undefined };
      if (r.done) break;
      size += r.value.byteLength;
      if (size > MAX_BUNDLE_BYTES) {
        ctl.abort();
        throw new BundleError({ code: 'bundle_too_large', mb: MAX_BUNDLE_BYTES / 1024 / 1024 });
      }
      chunks.push(r.value);
    }
    const bytes = new Uint8Array(Buffer.concat(chunks));
    verifySha256(bytes, sha256);
    return bytes;
  } finally {
    clearTimeout(timer);
  }
}

/** The host (and port) of a download address, for the reasons that name it. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}

interface Pending {
  bundle: InspectedBundle;
  /** Set when the bundle came from a registry entry: recorded once it is installed. */
  origin: unknown;
}

/** Looks at and installs bundles. */
export class BundleInstaller {
  private readonly pending = new Map<string, Pending>();

  /**
   * @param onInstalled called after a bundle that came from a registry entry was installed, with
   *   the origin given to {@link inspect}
   */
  constructor(
    private readonly stateDir: string,
    private readonly host: Pick<McpHost, 'add'>,
    private readonly resolve?: (command: string) => string | null,
    private readonly onInstalled?: (server: string, origin: unknown) => Promise<void>,
  ) {}

  /**
   * Delete the unpacked folders of server `serverName` (after it was removed). Only folders this
   * installer made (`<name>-<8 hex>`) are touched: those made for that name, and those the
   * removed server's `command` ran from — a renamed server keeps the folder of its first name
   * (docs/ARCHITECTURE.md "Renaming a server").
   */
  async forget(serverName: string, command: readonly string[] = []): Promise<void> {
    const root = path.join(this.stateDir, 'bundles');
    const names = await fs.readdir(root).catch(() => [] as string[]);
    const mine = new RegExp(`^${serverName.replace(/[.]/g, '\\.')}-[0-9a-f]{8}$`);
    const made = (n: string): boolean => /-[0-9a-f]{8}$/.test(n) && isValidServerName(n.slice(0, -9));
    const ranFrom = (n: string): boolean => made(n) && command.some((part) => part.startsWith(path.join(root, n) + path.sep));
    for (const n of names) if (mine.test(n) || ranFrom(n)) await fs.rm(path.join(root, n), { recursive: true, force: true });
  }

  /** Check a bundle file and keep it for {@link install}. @throws BundleError */
  async inspect(bytes: Uint8Array, origin: unknown = null): Promise<BundlePreview> {
    if (bytes.byteLength > MAX_BUNDLE_BYTES) throw new BundleError({ code: 'bundle_too_large', mb: MAX_BUNDLE_BYTES / 1024 / 1024 });
    const b = await inspectBundle(bytes);
    const token = randomBytes(16).toString('hex');
    this.pending.set(token, { bundle: b, origin });
    for (const k of [...this.pending.keys()].slice(0, Math.max(0, this.pending.size - MAX_PENDING))) this.pending.delete(k);
    const m = b.manifest;
    return { token, name: m.name, display_name: m.display_name ?? null, version: m.version, description: m.description, runtime: b.command, fields: b.fields, fixed: b.fixed, sandbox_needs: b.sandboxNeeds };
  }

  /**
   * Install a bundle looked at before. Nothing is kept when the answers, the runtime or the add
   * fail (the unpacked folder is removed again).
   * @throws BundleError (unknown token), CatalogInputError, MissingRuntimeError, HostError
   */
  async install(token: string, serverName: string, values: FieldValues): Promise<ServerView> {
    const p = this.pending.get(token);
    if (!p) throw new BundleError('This bundle is no longer waiting to be installed; choose the file again.');
    const b = p.bundle;
    const dir = path.join(this.stateDir, 'bundles', `${serverName}-${randomBytes(4).toString('hex')}`);
    await unpackBundle(b, dir);
    try {
      const input = await bundleConfig(b, dir, values);
      if (input.type === 'local') checkRuntime(input.command[0]!, this.resolve);
      const view = await this.host.add(serverName, input);
      this.pending.delete(token);
      if (p.origin !== null) await this.onInstalled?.(serverName, p.origin);
      return view;
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true });
      throw err;
    }
  }
}
