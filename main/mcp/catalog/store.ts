/**
 * The server catalog's one job here: its own small files in `<state dir>/catalog/`
 * (docs/ARCHITECTURE.md "Server catalog"):
 * - `settings.json`: the registry URL (default: the official MCP Registry);
 * - `installs.json`: for each server installed from the catalog, where it came from (registry,
 *   server name, version, option) and the non-secret command-line/URL answers, so an update can be
 *   built again. Env and header values are never written here (they are in the secret store).
 * Both are written atomically; an unreadable file counts as empty and is replaced on the next save.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { registryUrlSchema } from '../../../preload/contract/index.js';
import { Mutex, writeFileAtomic } from '../../util/atomic-write.js';

/** The official MCP Registry. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

const installSchema = z.object({
  registry_url: z.string().max(2048),
  name: z.string().max(200),
  version: z.string().max(255),
  option: z.string().max(64),
  remembered: z.record(z.string().max(256), z.union([z.string().max(4096), z.array(z.string().max(4096)).max(64)])),
  /** The label of each remembered field, so an answer is carried only to the same flag or value hint. */
  labels: z.record(z.string().max(256), z.string().max(256)).optional(),
  installed_at: z.number(),
});
/** Where one installed server came from. */
export type InstallRecord = z.infer<typeof installSchema>;

const installsSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), installSchema) });

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The catalog's settings and install records. */
export class CatalogStore {
  private readonly dir: string;
  private readonly mutex = new Mutex();

  constructor(stateDir: string) {
    this.dir = path.join(stateDir, 'catalog');
  }

  /** The registry URL in use. */
  async registryUrl(): Promise<string> {
    const doc = (await readJson(path.join(this.dir, 'settings.json'))) as { registry_url?: unknown } | undefined;
    const ok = registryUrlSchema.safeParse(doc?.registry_url);
    return ok.success ? ok.data : DEFAULT_REGISTRY_URL;
  }

  /** Set the registry URL. @throws ZodError for a URL that is not https (or http to loopback). */
  async setRegistryUrl(url: string): Promise<string> {
    const checked = registryUrlSchema.parse(url).replace(/\/+$/, '');
    await this.mutex.run(() => writeFileAtomic(path.join(this.dir, 'settings.json'), JSON.stringify({ registry_url: checked }, null, 2) + '\n'));
    return checked;
  }

  private async installs(): Promise<Record<string, InstallRecord>> {
    const parsed = installsSchema.safeParse(await readJson(path.join(this.dir, 'installs.json')));
    return parsed.success ? parsed.data.servers : {};
  }

  /** Every install record, by server name. */
  async allInstalls(): Promise<Record<string, InstallRecord>> {
    return this.installs();
  }

  /**
   * A server was renamed: where it came from is recorded under its new name (one atomic write;
   * docs/ARCHITECTURE.md "Renaming a server"). A record left under `to` by a removed server goes.
   */
  async renameInstall(from: string, to: string): Promise<void> {
    await this.mutex.run(async () => {
      const all = await this.installs();
      const rec = all[from];
      if (!rec && !(to in all)) return;
      delete all[from];
      if (rec) all[to] = rec;
      else delete all[to];
      await writeFileAtomic(path.join(this.dir, 'installs.json'), JSON.stringify({ version: 1, servers: all }, null, 2) + '\n');
    });
  }

  /** Record (or replace) where `server` came from; `null` forgets it. */
  async setInstall(server: string, rec: InstallRecord | null): Promise<void> {
    await this.mutex.run(async () => {
      const all = await this.installs();
      if (rec) all[server] = rec;
      else delete all[server];
      await writeFileAtomic(path.join(this.dir, 'installs.json'), JSON.stringify({ version: 1, servers: all }, null, 2) + '\n');
    });
  }
}
