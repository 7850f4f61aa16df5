/**
 * The server catalog's one job here: talk to an MCP Registry over its REST API v0.1
 * (docs/ARCHITECTURE.md "Server catalog"): `GET /v0.1/servers` (search, cursor pagination,
 * `version=latest`), `GET /v0.1/servers/{name}/versions/{version|latest}`. Every answer is
 * bounded (time, bytes, pages) and validated with ./schema.ts; each failure is a typed
 * {@link RegistryError}.
 */
import { z } from 'zod';
import { networkErrorCode, reason, reasonLogText, type CatalogProblem } from './reasons.js';
import { OFFICIAL_META, rawEntrySchema, serverJsonSchema, serverListSchema, type EntryStatus, type OfficialMeta, type ServerJson } from './schema.js';

/** Why a registry request failed. */
export type RegistryErrorKind = 'unreachable' | 'timeout' | 'http' | 'garbage' | 'too_large' | 'endless_paging' | 'not_found';

/**
 * A failed registry request; `kind` classifies it, `problem` is the structured reason the window
 * renders in its language (`registry_*` codes of `CatalogProblem`), `message` its language-neutral
 * log form (code and fields; no sentence for a user).
 */
export class RegistryError extends Error {
  override name = 'RegistryError';
  readonly problem: CatalogProblem;
  constructor(
    readonly kind: RegistryErrorKind,
    problem: CatalogProblem,
  ) {
    const capped = reason(problem);
    super(`Registry: ${reasonLogText(capped)}`);
    this.problem = capped;
  }
}

/** One registry entry: its server.json when it validated, else why not. */
export interface RegistryEntry {
  name: string;
  version: string;
  /** The validated server.json, or null (then `invalid` says why). */
  server: ServerJson | null;
  invalid: string | null;
  /**
   * Where the first validation issue is, as path segments (`['packages', 0, 'transport']`; at most
   * 8, names cut to 64 characters), or null when it validated. The Catalog screen shows this, not
   * `invalid`'s English text.
   */
  invalidPath: (string | number)[] | null;
  /** The document as received (for the cache; re-validated when read back). */
  raw: unknown;
  status: EntryStatus;
  statusMessage: string | null;
  updatedAt: string | null;
  isLatest: boolean;
}

/** A page of entries and the cursor of the next page (null: the last page). */
export interface RegistryPage {
  entries: RegistryEntry[];
  nextCursor: string | null;
  /** Entries without a usable name/version (not returned). */
  skipped: number;
}

/** Client options; defaults suit the official registry. */
export interface RegistryClientOptions {
  /** Whole-request limit (connect, headers and body), ms. Default 10 s. */
  timeoutMs?: number;
  /** Largest answer read, bytes. Default 4 MiB. */
  maxBytes?: number;
  /** Pages one search may read while looking for results. Default 5. */
  maxPages?: number;
  /** Entries one search tries to gather. Default 30. */
  want?: number;
  fetch?: typeof fetch;
}

function plainName(raw: unknown): { name: string; version: string } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.name !== 'string' || typeof r.version !== 'string' || !r.name || r.name.length > 200 || r.version.length > 255) return null;
  return { name: r.name, version: r.version };
}

/**
 * Turn one `{server, _meta}` item into an entry: null when it has no usable name and version;
 * an entry with `invalid` set when its server.json does not validate.
 */
export function toEntry(item: z.infer<typeof rawEntrySchema>): RegistryEntry | null {
  const id = plainName(item.server);
  if (!id) return null;
  const meta: OfficialMeta = item._meta?.[OFFICIAL_META] ?? {};
  const parsed = serverJsonSchema.safeParse(item.server);
  const issue = parsed.success ? null : parsed.error.issues[0];
  return {
    ...id,
    server: parsed.success ? parsed.data : null,
    invalid: issue ? `server.json does not validate: ${issue.path.join('.') || '(document)'}: ${issue.message}`.slice(0, 500) : null,
    invalidPath: issue ? issue.path.slice(0, 8).map((seg) => (typeof seg === 'number' ? seg : String(seg).slice(0, 64))) : null,
    raw: item.server,
    status: meta.status ?? 'active',
    statusMessage: meta.statusMessage ?? null,
    updatedAt: meta.updatedAt ?? null,
    isLatest: meta.isLatest ?? true,
  };
}

/** A client for one registry. */
export class RegistryClient {
  private readonly opts: Required<Omit<RegistryClientOptions, 'fetch'>> & { fetch: typeof fetch };

  /** @param baseUrl the registry's base URL (already checked: https, or http to loopback). */
  constructor(
    readonly baseUrl: string,
    opts: RegistryClientOptions = {},
  ) {
    this.opts = { timeoutMs: 10_000, maxBytes: 4 * 1024 * 1024, maxPages: 5, want: 30, fetch: opts.fetch ?? globalThis.fetch, ...stripUndefined(opts) };
  }

  /** The registry's host (and port), as the reasons name it. */
  get host(): string {
    return new URL(this.baseUrl).host;
  }

  private url(p: string, query: Record<string, string | undefined> = {}): string {
    const u = new URL(this.baseUrl.replace(/\/+$/, '') + p);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, v);
    return u.href;
  }

  /** GET a JSON document within the time and size limits. @throws RegistryError */
  private async getJson(url: string): Promise<unknown> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), this.opts.timeoutMs);
    const host = new URL(url).host;
    try {
      let res: Response;
      try {
        res = await this.opts.fetch(url, { signal: ctl.signal, headers: { accept: 'application/json' }, redirect: 'error' });
      } catch (err) {
        if (ctl.signal.aborted) throw new RegistryError('timeout', { code: 'registry_unreachable', host, error: 'timeout' });
        throw new RegistryError('unreachable', { code: 'registry_unreachable', host, error: networkErrorCode(err) });
      }
      if (res.status === 404) {
        await res.body?.cancel().catch(() => undefined);
        throw new RegistryError('not_found', { code: 'registry_not_found', host });
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new RegistryError('http', { code: 'registry_http_status', host, status: res.status });
      }
      const text = await this.readBounded(res, ctl, host);
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new RegistryError('garbage', { code: 'registry_not_json', host });
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private async readBounded(res: Response, ctl: AbortController, host: string): Promise<string> {
    const reader = res.body?.getReader();
    if (!reader) return '';
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > this.opts.maxBytes) {
          ctl.abort();
          throw new RegistryError('too_large', { code: 'registry_too_large', host, mib: Math.ceil((this.opts.maxBytes / 1024 / 1024) * 100) / 100 });
        }
        chunks.push(value);
      }
    } catch (err) {
      if (err instanceof RegistryError) throw err;
      if (ctl.signal.aborted) throw new RegistryError('timeout', { code: 'registry_unreachable', host, error: 'timeout' });
      throw new RegistryError('unreachable', { code: 'registry_unreachable', host, error: networkErrorCode(err) });
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** One page of `GET /v0.1/servers` (latest versions only). @throws RegistryError */
  async listPage(query: { search?: string; cursor?: string; limit?: number }): Promise<RegistryPage> {
    const body = await this.getJson(this.url('/v0.1/servers', { search: query.search || undefined, cursor: query.cursor, limit: String(query.limit ?? 30), version: 'latest' }));
    const parsed = serverListSchema.safeParse(body);
    if (!parsed.success) throw new RegistryError('garbage', { code: 'registry_not_a_list', host: this.host });
    let skipped = 0;
    const entries: RegistryEntry[] = [];
    for (const item of parsed.data.servers) {
      const e = toEntry(item);
      if (e) entries.push(e);
      else skipped++;
    }
    return { entries, nextCursor: parsed.data.metadata?.nextCursor || null, skipped };
  }

  /**
   * Search: read pages from `cursor` until `want` entries are gathered or the list ends (at most
   * `maxPages`). A cursor that repeats, or pages that never end without bringing anything, are
   * refused. @throws RegistryError
   */
  async search(search: string, cursor?: string): Promise<RegistryPage> {
    const seen = new Set<string>(cursor ? [cursor] : []);
    const out: RegistryPage = { entries: [], nextCursor: cursor ?? null, skipped: 0 };
    for (let page = 0; page < this.opts.maxPages; page++) {
      const p = await this.listPage({ search, cursor: out.nextCursor ?? undefined, limit: this.opts.want });
      out.entries.push(...p.entries);
      out.skipped += p.skipped;
      out.nextCursor = p.nextCursor;
      if (!p.nextCursor || out.entries.length >= this.opts.want) return out;
      if (seen.has(p.nextCursor)) throw new RegistryError('endless_paging', { code: 'registry_paging_loops', host: this.host });
      seen.add(p.nextCursor);
    }
    if (out.entries.length === 0) throw new RegistryError('endless_paging', { code: 'registry_paging_empty', host: this.host, pages: this.opts.maxPages });
    return out;
  }

  /**
   * One version of a server (`latest` for the newest), deleted ones included.
   * @throws RegistryError (`not_found` when the registry does not know it)
   */
  async get(name: string, version: string): Promise<RegistryEntry> {
    const body = await this.getJson(this.url(`/v0.1/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`, { include_deleted: 'true' }));
    const parsed = rawEntrySchema.safeParse(body);
    const entry = parsed.success ? toEntry(parsed.data) : null;
    if (!entry) throw new RegistryError('garbage', { code: 'registry_not_an_entry', host: this.host });
    if (entry.name !== name) throw new RegistryError('garbage', { code: 'registry_wrong_entry', host: this.host });
    return entry;
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
