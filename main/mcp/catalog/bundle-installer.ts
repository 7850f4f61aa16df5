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
import { BundleError, bundleConfig, inspectBundle, unpackBundle, type InspectedBundle } from './bundle.js';
import type { FieldValues } from './mapping.js';
import { checkRuntime } from './runtime.js';

/** Largest bundle file accepted, bytes. */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;
/** Bundles looked at and not installed yet that are kept (the oldest is dropped). */
const MAX_PENDING = 4;

/** Looks at and installs bundles. */
export class BundleInstaller {
  private readonly pending = new Map<string, InspectedBundle>();

  constructor(
    private readonly stateDir: string,
    private readonly host: Pick<McpHost, 'add'>,
    private readonly resolve?: (command: string) => string | null,
  ) {}

  /** Check a bundle file and keep it for {@link install}. @throws BundleError */
  inspect(bytes: Uint8Array): BundlePreview {
    if (bytes.byteLength > MAX_BUNDLE_BYTES) throw new BundleError('The bundle is larger than 64 MB.');
    const b = inspectBundle(bytes);
    const token = randomBytes(16).toString('hex');
    this.pending.set(token, b);
    for (const k of [...this.pending.keys()].slice(0, Math.max(0, this.pending.size - MAX_PENDING))) this.pending.delete(k);
    const m = b.manifest;
    return { token, name: m.name, display_name: m.display_name ?? null, version: m.version, description: m.description, runtime: b.command, fields: b.fields };
  }

  /**
   * Install a bundle looked at before. Nothing is kept when the answers, the runtime or the add
   * fail (the unpacked folder is removed again).
   * @throws BundleError (unknown token), CatalogInputError, MissingRuntimeError, HostError
   */
  async install(token: string, serverName: string, values: FieldValues): Promise<ServerView> {
    const b = this.pending.get(token);
    if (!b) throw new BundleError('This bundle is no longer waiting to be installed; choose the file again.');
    const dir = path.join(this.stateDir, 'bundles', `${serverName}-${randomBytes(4).toString('hex')}`);
    await unpackBundle(b, dir);
    try {
      const input = await bundleConfig(b, dir, values);
      if (input.type === 'local') checkRuntime(input.command[0]!, this.resolve);
      const view = await this.host.add(serverName, input);
      this.pending.delete(token);
      return view;
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true });
      throw err;
    }
  }
}
