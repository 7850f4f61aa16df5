/**
 * Import and export of the server list: export in the config file's format (secrets blanked, or
 * written owner-only to a file), import of `{"servers": …}` / `{"mcpServers": …}` documents with
 * a masked preview, and which stored secrets an imported entry may keep
 * (docs/ARCHITECTURE.md "Config file", "Security").
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExportResult, ImportPreview, ImportResult, ImportSkip, ImportSkipped } from '../../../preload/contract/index.js';
import { assertNoPlaceholders, ConfigDocumentError, ConfigError, parseConfigDocument, toolNamespace, type ServerConfig } from '../config.js';
import { transportFor } from '../transports/registry.js';
import { maskedTarget } from './views.js';
import { mapForeignToolKeys } from '../tool-settings.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { duplicateKeys } from '../config/duplicate-keys.js';
import { HostError } from './errors.js';
import type { ServerManagement } from './management.js';
import type { ServerRuntime } from './runtime.js';

/**
 * Whether stored secrets may follow an imported entry: only to the same destination — the same
 * command line for a stdio server (program and arguments), the same URL origin (scheme, host,
 * port) for a remote one. Anything else would hand the stored values to a program or host the
 * pasted text chose.
 */
export function sameSecretDestination(next: ServerConfig, stored: ServerConfig): boolean {
  return transportFor(next).sameSecretDestination(next, stored);
}

/**
 * The stored values an imported entry keeps: for every secret the entry leaves empty, the stored
 * value of the same name — but only when {@link sameSecretDestination}; for every `***` (an
 * export's secret argument or URL part), the stored value it stands for. Returns the description
 * of each kept value (`env API_TOKEN`, `header Authorization`, `bearer token`, `OAuth client
 * secret`, `argument 3`, `URL query parameter token`) and fills them into `next` when `apply` is true.
 */
export function storedSecretsKept(next: ServerConfig, stored: ServerConfig | undefined, apply: boolean): string[] {
  return stored ? transportFor(next).keptSecrets(next, stored, apply) : [];
}

/**
 * Take out of `servers` every entry of the pasted `json` that gives one environment variable or
 * header twice (JSON.parse would keep the last value unseen); returns them with why.
 */
function withoutDuplicateNames(json: string, servers: Map<string, ServerConfig>): ImportSkipped[] {
  const out: ImportSkipped[] = [];
  for (const d of duplicateKeys(json)) {
    const [table, name, map] = d.path;
    if (d.path.length !== 3 || (table !== 'servers' && table !== 'mcpServers') || (map !== 'env' && map !== 'headers') || !servers.has(name!)) continue;
    servers.delete(name!);
    const key = d.key.slice(0, 256);
    out.push({ name: name!, why: { code: 'given_twice', map, key }, reason: `${map === 'env' ? 'the environment variable' : 'the header'} "${key}" is given twice` });
  }
  return out;
}

/** Why saving an imported entry failed, by the error's class: its command, a refused field, or else `not_saved`. */
function skipOf(err: unknown): ImportSkip {
  if (err instanceof HostError && err.fact?.kind === 'server_failure' && err.fact.failure.kind === 'spawn_failed') return { code: 'command_not_found', command: err.fact.failure.command };
  if (err instanceof ConfigError) return { code: 'invalid_entry', issue: err.issue };
  return { code: 'not_saved' };
}

/** Import and export for one host. */
export class ServerTransfer {
  constructor(
    private readonly rt: ServerRuntime,
    private readonly mgmt: ServerManagement,
  ) {}

  /**
   * Export the server list in the config file's format (docs/ARCHITECTURE.md "Config file"). Without secrets every env/header value
   * is `""` and the JSON is returned. With secrets the document is written owner-only to
   * `<state dir>/exports/` and only its path is returned, so no secret crosses IPC.
   */
  async exportServers(includeSecrets: boolean): Promise<ExportResult> {
    const doc = this.rt.store.exportDocument(includeSecrets);
    const json = JSON.stringify(doc, null, 2) + '\n';
    if (!includeSecrets) return { json, path: null, warning: null };
    const dir = path.join(this.rt.store.stateDir, 'exports');
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `mcp_servers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    await writeFileAtomic(file, json);
    return {
      json: null,
      path: file,
      warning: 'This file contains your secrets (environment variables and headers) in plain text. It is readable only by you; delete it when you no longer need it and do not share it.',
    };
  }

  /**
   * The pasted document's servers and the entries it skips. An empty array reads as an empty
   * document (nothing to import, not an error).
   */
  private parseImport(json: string): { servers: Map<string, ServerConfig>; unreadable: ImportSkipped[]; warning: string | null } {
    let doc: unknown;
    try {
      doc = JSON.parse(json);
    } catch {
      throw new HostError('invalid_input', 'The text is not valid JSON.', 'json', { fact: { kind: 'import', problem: 'not_json' } });
    }
    if (Array.isArray(doc) && doc.length === 0) return { servers: new Map(), unreadable: [], warning: null };
    try {
      const parsed = parseConfigDocument(doc, { allowRefs: false });
      return { ...parsed, unreadable: [...parsed.unreadable, ...withoutDuplicateNames(json, parsed.servers)] };
    } catch (err) {
      // Pasted text, not a file: the window words the problem by its code.
      if (err instanceof ConfigDocumentError) throw new HostError('invalid_input', `The text cannot be imported: ${err.message}.`, 'json', { fact: { kind: 'import', problem: err.problem } });
      throw err;
    }
  }

  /**
   * What importing `json` would add (masked), and the entries it cannot read (`unreadable`). An entry whose tools would share the namespace of a
   * server already there, or of an earlier entry of the document, names it in `collides_with`
   * (it will not be imported). @throws HostError('invalid_input')
   */
  importPreview(json: string): ImportPreview {
    const { servers, unreadable, warning } = this.parseImport(json);
    const doc = JSON.parse(json) as Record<string, unknown>;
    const table = ((typeof doc.servers === 'object' && doc.servers !== null ? doc.servers : doc.mcpServers) ?? {}) as Record<string, Record<string, unknown>>;
    // The new entries the import would add, in order: a later one may collide with them too.
    const added: string[] = [];
    const collision = (name: string): string | null => {
      const t = this.mgmt.nameTakenBy(name);
      if (t) return t.kind === 'namespace' ? t.existing : null;
      const earlier = added.find((a) => toolNamespace(a) === toolNamespace(name));
      if (earlier === undefined) added.push(name);
      return earlier ?? null;
    };
    return {
      servers: [...servers].map(([name, cfg]) => {
        const tools = Object.entries(cfg.tools ?? {});
        return {
          collides_with: collision(name),
          name,
          type: cfg.type,
          command: maskedTarget(cfg).command,
          url: maskedTarget(cfg).url,
          ...transportFor(cfg).maskedValues(cfg),
          enabled: cfg.enabled,
          exists: this.rt.store.entryNamed(name) !== undefined,
          kept_secrets: storedSecretsKept(structuredClone(cfg), this.rt.store.get(name), false),
          disabled_tools: tools.filter(([, s]) => s.enabled === false).map(([n]) => n),
          always_allow_tools: tools.filter(([, s]) => s.approval === 'always_allow').map(([n]) => n),
          // The entry parsed above, so its lists are valid; only the unmapped key names are read here.
          unmapped_keys: mapForeignToolKeys(table[name] ?? {}).unmapped,
        };
      }),
      unreadable,
      warning,
    };
  }

  /**
   * Import servers from a `{"servers": …}` or `{"mcpServers": …}` document (plaintext secrets are
   * moved into the secret store on save). Existing names are skipped unless `replaceExisting`; a
   * new name whose tools would share a server's namespace is skipped with that server named.
   * @throws HostError('invalid_input') for a document that cannot be read.
   */
  async importServers(json: string, replaceExisting: boolean): Promise<ImportResult> {
    const { servers, unreadable } = this.parseImport(json);
    const result: ImportResult = { added: [], replaced: [], skipped: [...unreadable] };
    for (const [name, cfg] of servers) {
      const taken = this.mgmt.nameTakenBy(name);
      if (taken?.kind === 'namespace') {
        // Refused like an add (NameCollisionError): the two could be taken for one another.
        result.skipped.push({ name, why: { code: 'name_taken', existing: taken.existing, why: 'namespace' }, reason: `its tools would be named like those of the server "${taken.existing}" (tool names turn "." into "_")` });
        continue;
      }
      if (taken && (taken.adding || taken.existing !== name)) {
        result.skipped.push({ name, why: { code: 'name_taken', existing: taken.existing, why: taken.adding ? 'adding' : 'same' }, reason: `a server named "${taken.existing}" exists (names that differ only in case are the same)` });
        continue;
      }
      const exists = taken !== null; // loaded, or skipped at load (kept in the file)
      if (exists && !replaceExisting) {
        result.skipped.push({ name, why: { code: 'exists' }, reason: 'a server of that name exists' });
        continue;
      }
      try {
        // An export leaves secret values empty: importing it over the same server keeps the stored
        // values rather than wiping them (empty means "unchanged", as in the Edit form) — but
        // only when the entry still points at the same command or URL origin.
        if (exists) storedSecretsKept(cfg, this.rt.store.get(name), true);
        // A `***` that no stored value filled stands for nothing: the entry needs its value.
        assertNoPlaceholders(cfg);
        if (cfg.enabled) this.rt.checkCommand(cfg);
        await this.mgmt.whileAdding(name, async () => {
          if (this.rt.store.has(name)) await this.mgmt.remove(name);
          this.mgmt.bump(name);
          await this.rt.store.put(name, cfg);
        });
        if (cfg.enabled) this.rt.launch(name, cfg);
        else this.rt.emitChanged(name);
        (exists ? result.replaced : result.added).push(name);
      } catch (err) {
        result.skipped.push({ name, why: skipOf(err), reason: (err as Error).message });
      }
    }
    return result;
  }
}
