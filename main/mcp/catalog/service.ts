/**
 * The server catalog's one job here: what the Catalog screen asks of main — search (live, else
 * from the cache), install an entry as a server, compare installed catalog servers with the
 * registry, update one (docs/ARCHITECTURE.md "Server catalog"). Servers are added and changed only
 * through the host's own `add` / `update`, so the config schema, the secret store and the masked
 * views are the same as for every other server.
 */
import type { BundlePreview, CatalogDiffItem, CatalogEntryView, CatalogOption, CatalogPage, ServerView } from '../../../preload/contract/index.js';
import type { ConfigStore } from '../config.js';
import type { McpHost } from '../host.js';
import { BundleInstaller, downloadBundle } from './bundle-installer.js';
import { CatalogCache } from './cache.js';
import { CatalogIcons, iconUrlAllowed } from './icons.js';
import { carriedValues, diffConfigs, neededFields, updatePatch } from './diff.js';
import { buildConfig, CatalogInputError, installOptions, type FieldValues } from './mapping.js';
import { NotInstallableError, reason, type NotInstallableReason } from './reasons.js';
import { RegistryClient, RegistryError, type RegistryClientOptions, type RegistryEntry } from './registry.js';
import { checkRuntime } from './runtime.js';
import { CatalogStore, type InstallRecord } from './store.js';

export { MissingRuntimeError } from './runtime.js';

/** What the service needs from the rest of main. */
export interface CatalogDeps {
  stateDir: string;
  host: Pick<McpHost, 'add' | 'update'>;
  config: Pick<ConfigStore, 'get' | 'has'>;
  /** Registry client options (tests: shorter timeouts). */
  client?: RegistryClientOptions;
  /** Downloads bundles (default: global fetch). */
  fetch?: typeof fetch;
  /** Finds a program on PATH (default: the host's own lookup). */
  resolve?: (command: string) => string | null;
}

/** The Catalog's operations. */
export class CatalogService {
  readonly store: CatalogStore;
  readonly cache: CatalogCache;
  /** Registry icons, fetched by main for the window. */
  readonly icons: CatalogIcons;
  /** `.mcpb` bundles: look at one, then install it. */
  readonly bundles: BundleInstaller;

  constructor(private readonly deps: CatalogDeps) {
    this.store = new CatalogStore(deps.stateDir);
    this.cache = new CatalogCache(deps.stateDir);
    this.icons = new CatalogIcons(deps.fetch);
    this.bundles = new BundleInstaller(deps.stateDir, deps.host, deps.resolve, (server, origin) => this.store.setInstall(server, { ...(origin as Omit<InstallRecord, 'installed_at'>), installed_at: Date.now() }));
  }

  private async client(): Promise<RegistryClient> {
    return new RegistryClient(await this.store.registryUrl(), this.deps.client);
  }

  /**
   * Search the registry (empty: browse). On success the answer is cached; when the registry
   * cannot be used, the cached answer is returned with the reason (the cache is not touched).
   */
  async search(query: string, cursor: string | undefined, includeDeprecated: boolean): Promise<CatalogPage> {
    const client = await this.client();
    const installed = await this.store.allInstalls();
    const view = (entries: RegistryEntry[]): CatalogEntryView[] =>
      entries.filter((e) => e.status === 'active' || (includeDeprecated && e.status === 'deprecated')).map((e) => this.entryView(e, installed));
    try {
      const page = await client.search(query, cursor);
      await this.cache.putPage(client.baseUrl, query, cursor, page);
      return { registry_url: client.baseUrl, source: { kind: 'registry' }, fetched_at: Date.now(), entries: view(page.entries), next_cursor: page.nextCursor, skipped: page.skipped };
    } catch (err) {
      if (!(err instanceof RegistryError)) throw err;
      const cached = await this.cache.getPage(client.baseUrl, query, cursor);
      if (!cached) return { registry_url: client.baseUrl, source: { kind: 'none', reason: err.problem }, fetched_at: null, entries: [], next_cursor: null, skipped: 0 };
      return { registry_url: client.baseUrl, source: { kind: 'cache', reason: err.problem }, fetched_at: cached.fetchedAt, entries: view(cached.entries), next_cursor: cached.nextCursor, skipped: cached.skipped };
    }
  }

  private entryView(e: RegistryEntry, installed: Record<string, InstallRecord>): CatalogEntryView {
    const s = e.server;
    const icon = s?.icons?.find((i) => iconUrlAllowed(i.src) && !/svg/i.test(i.mimeType ?? ''))?.src ?? null;
    if (icon) this.icons.allow(icon);
    return {
      name: e.name,
      version: e.version,
      title: s?.title ?? null,
      description: s?.description ?? (typeof (e.raw as { description?: unknown }).description === 'string' ? String((e.raw as { description: string }).description).slice(0, 1000) : ''),
      icon,
      repository: s?.repository?.url && /^https:\/\//i.test(s.repository.url) ? s.repository.url : null,
      website: s?.websiteUrl && /^https:\/\//i.test(s.websiteUrl) ? s.websiteUrl : null,
      status: e.status,
      status_message: e.statusMessage,
      updated_at: e.updatedAt,
      transports: s ? [...(s.packages ?? []).map((p) => p.registryType), ...(s.remotes ?? []).map((r) => r.type)] : [],
      state: s ? { kind: 'valid', options: installOptions(s) } : { kind: 'invalid', reason: 'server_json_invalid', path: e.invalidPath ?? [], detail: e.invalid ?? 'server.json does not validate' },
      installed_as: Object.entries(installed)
        .filter(([, r]) => r.name === e.name)
        .map(([n]) => n),
    };
  }

  /** One entry, live or (when the registry cannot be reached) from the cache. @throws RegistryError */
  private async entry(client: RegistryClient, name: string, version: string): Promise<RegistryEntry> {
    try {
      const e = await client.get(name, version);
      await this.cache.putEntry(client.baseUrl, e, version);
      return e;
    } catch (err) {
      if (!(err instanceof RegistryError) || err.kind === 'not_found') throw err;
      const cached = await this.cache.getEntry(client.baseUrl, name, version);
      if (!cached) throw err;
      return cached.entry;
    }
  }

  private checkRuntime(runtime: string | null): void {
    if (runtime) checkRuntime(runtime, this.deps.resolve);
  }

  /**
   * Install option `option` of entry `name`@`version` as server `serverName`. Nothing is saved
   * unless the answers validate and the runtime is there; then it goes through the host's `add`.
   * @throws RegistryError, NotInstallableError, CatalogInputError, MissingRuntimeError, HostError
   */
  async install(name: string, version: string, option: string, serverName: string, values: FieldValues): Promise<ServerView> {
    const client = await this.client();
    const e = await this.entry(client, name, version);
    if (!e.server) throw new NotInstallableError({ code: 'server_json_invalid' });
    if (e.status === 'deleted') throw new NotInstallableError({ code: 'entry_removed', name, ...(e.statusMessage ? { message: e.statusMessage } : {}) });
    const built = buildConfig(e.server, option, values);
    this.checkRuntime(built.runtime);
    const view = await this.deps.host.add(serverName, built.input);
    await this.store.setInstall(serverName, { registry_url: client.baseUrl, name, version: e.version, option, remembered: built.remembered, labels: built.labels, installed_at: Date.now() });
    return view;
  }

  /**
   * Download the bundle of an entry's `mcpb` package, check its SHA-256 and the bundle itself, and
   * keep it for `bundles.install` (which then records where it came from).
   * @throws RegistryError, NotInstallableError, BundleError
   */
  async fetchBundle(name: string, version: string, option: string): Promise<BundlePreview> {
    const client = await this.client();
    const e = await this.entry(client, name, version);
    if (!e.server) throw new NotInstallableError({ code: 'server_json_invalid' });
    if (e.status === 'deleted') throw new NotInstallableError({ code: 'entry_removed', name, ...(e.statusMessage ? { message: e.statusMessage } : {}) });
    const m = /^package:(\d+)$/.exec(option);
    const p = m ? e.server.packages?.[Number(m[1])] : undefined;
    const opt = installOptions(e.server).find((o) => o.id === option);
    if (!p || p.registryType !== 'mcpb' || !opt) throw new NotInstallableError({ code: 'not_a_bundle' });
    if (!opt.installable) throw new NotInstallableError(opt.reason);
    const bytes = await downloadBundle(p.identifier, p.fileSha256!, this.deps.fetch);
    const origin: Omit<InstallRecord, 'installed_at'> = { registry_url: client.baseUrl, name, version: e.version, option, remembered: {} };
    return this.bundles.inspect(bytes, origin);
  }

  /** Names of env vars / headers an option of a server.json defines (for what an update drops). */
  private static definedNames(server: RegistryEntry['server'], option: string): string[] {
    const opt = server ? installOptions(server).find((o) => o.id === option) : undefined;
    if (!server || !opt) return [];
    const m = /^(package|remote):(\d+)$/.exec(option);
    const list = m?.[1] === 'package' ? server.packages?.[Number(m[2])]?.environmentVariables : server.remotes?.[Number(m?.[2])]?.headers;
    return (list ?? []).map((kv) => kv.name);
  }

  /** Plan the update of one installed server to `latest` (no I/O beyond the entries given). */
  private plan(rec: InstallRecord, serverName: string, installed: RegistryEntry | null, latest: RegistryEntry, values: FieldValues = {}): { option: CatalogOption; built: ReturnType<typeof buildConfig> | null; needs: ReturnType<typeof neededFields>; dropped: string[]; error: NotInstallableReason | null } {
    const current = this.deps.config.get(serverName);
    if (!current) throw new NotInstallableError({ code: 'no_server', server: serverName });
    if (!latest.server) throw new NotInstallableError({ code: 'new_version_invalid' });
    const option = installOptions(latest.server).find((o) => o.id === rec.option);
    if (!option) throw new NotInstallableError({ code: 'option_gone' });
    if (!option.installable) throw new NotInstallableError(option.reason);
    if (option.kind === 'mcpb') throw new NotInstallableError({ code: 'bundle_update_unsupported' });
    const carried = { ...carriedValues(current, option.fields, rec.remembered, rec.labels), ...values };
    const needs = neededFields(option.fields, carried);
    const newNames = new Set(option.fields.filter((f) => f.kind === 'env' || f.kind === 'header').map((f) => f.label));
    const dropped = CatalogService.definedNames(installed?.server ?? null, rec.option).filter((n) => !newNames.has(n) && !CatalogService.definedNames(latest.server, rec.option).includes(n));
    if (needs.length) return { option, built: null, needs, dropped, error: null };
    try {
      return { option, built: buildConfig(latest.server, rec.option, carried), needs, dropped, error: null };
    } catch (err) {
      // A kept answer that no longer fits the new version (e.g. a value not among its choices).
      if (err instanceof CatalogInputError) return { option, built: null, needs, dropped, error: reason({ code: 'answer_invalid', field: option.fields.find((f) => f.id === err.field)?.label ?? err.field ?? '' }) };
      if (err instanceof NotInstallableError) return { option, built: null, needs, dropped, error: err.reason };
      throw err;
    }
  }

  /** Every installed catalog server against the registry: status, newer version, what it would change. */
  async diff(): Promise<CatalogDiffItem[]> {
    const installs = await this.store.allInstalls();
    const out: CatalogDiffItem[] = [];
    for (const [serverName, rec] of Object.entries(installs)) {
      if (!this.deps.config.has(serverName)) continue;
      const client = new RegistryClient(rec.registry_url, this.deps.client);
      const item: CatalogDiffItem = { server: serverName, registry_name: rec.name, installed_version: rec.version, status: 'unknown', status_message: null, problem: null, update: { kind: 'none' } };
      out.push(item);
      let latest: RegistryEntry;
      let installed: RegistryEntry | null = null;
      try {
        latest = await this.entry(client, rec.name, 'latest');
        installed = await this.entry(client, rec.name, rec.version).catch(() => null);
      } catch (err) {
        if (err instanceof RegistryError && err.kind === 'not_found') {
          item.status = 'deleted';
          item.problem = reason({ code: 'registry_unlisted', name: rec.name });
        } else if (err instanceof RegistryError) item.problem = err.problem;
        else throw err;
        continue;
      }
      const statusOf = installed ?? latest;
      item.status = latest.status === 'deleted' || statusOf.status === 'deleted' ? 'deleted' : latest.status === 'deprecated' || statusOf.status === 'deprecated' ? 'deprecated' : 'active';
      item.status_message = (statusOf.status !== 'active' ? statusOf.statusMessage : null) ?? latest.statusMessage;
      if (latest.version === rec.version || latest.status === 'deleted') continue;
      try {
        const p = this.plan(rec, serverName, installed, latest);
        const current = this.deps.config.get(serverName)!;
        if (p.error) item.update = { kind: 'blocked', version: latest.version, reason: p.error };
        else {
          if (p.built) updatePatch(current, p.built.input, p.dropped); // refuses a change of type
          // Until its new questions are answered the new command/URL is not known: show the names.
          const names = Object.fromEntries(CatalogService.definedNames(latest.server, rec.option).map((n) => [n, '']));
          const known = p.built?.input ?? (current.type === 'local' ? { type: 'local' as const, command: current.command, env: names } : { type: current.type, url: current.url, headers: names });
          item.update = { kind: 'available', version: latest.version, changes: diffConfigs(current, known, p.dropped), needs: p.needs };
        }
      } catch (err) {
        if (!(err instanceof NotInstallableError)) throw err;
        item.update = { kind: 'blocked', version: latest.version, reason: err.reason };
      }
    }
    return out;
  }

  /**
   * Update an installed catalog server to its entry's latest version in one step: secrets whose
   * names are unchanged are kept, `values` answer new fields. Goes through the host's `update`
   * (persisted only once the server started with it).
   * @throws NotInstallableError, CatalogInputError, RegistryError, MissingRuntimeError, HostError
   */
  async update(serverName: string, values: FieldValues = {}): Promise<ServerView> {
    const rec = (await this.store.allInstalls())[serverName];
    if (!rec || !this.deps.config.has(serverName)) throw new NotInstallableError({ code: 'not_from_catalog', server: serverName });
    const client = new RegistryClient(rec.registry_url, this.deps.client);
    const latest = await this.entry(client, rec.name, 'latest');
    if (latest.status === 'deleted') throw new NotInstallableError({ code: 'entry_removed', name: rec.name, ...(latest.statusMessage ? { message: latest.statusMessage } : {}) });
    if (latest.version === rec.version) throw new NotInstallableError({ code: 'already_latest', server: serverName, version: rec.version });
    const installed = await this.entry(client, rec.name, rec.version).catch(() => null);
    const p = this.plan(rec, serverName, installed, latest, values);
    const current = this.deps.config.get(serverName)!;
    const carried = { ...carriedValues(current, p.option.installable ? p.option.fields : [], rec.remembered, rec.labels), ...values };
    const built = buildConfig(latest.server!, rec.option, carried);
    this.checkRuntime(built.runtime);
    const view = await this.deps.host.update(serverName, updatePatch(current, built.input, p.dropped));
    await this.store.setInstall(serverName, { ...rec, version: latest.version, remembered: built.remembered, labels: built.labels, installed_at: Date.now() });
    return view;
  }
}
