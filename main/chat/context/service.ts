/**
 * Prompts and resources for the composer (docs/ARCHITECTURE.md "Prompts and resources in chat"):
 * lists resource templates, asks servers for completions, resolves what the user attached to a
 * message (`prompts/get`, `resources/read`) into saved, budgeted content, reads resources for the
 * viewer, saves them to a file, and follows `notifications/resources/updated` of open viewers.
 * Every request goes to the one server that listed the prompt or resource.
 */
import { promises as fs } from 'node:fs';
import type {
  CompletionView,
  ContextEntry,
  ContextRef,
  ResourceReadView,
  ResourceSaveResult,
  ResourceTemplateView,
} from '../../../preload/contract/index.js';
import type { ReadyServer, ReadyServers } from '../../mcp/host/ready-server.js';
import { NotConnectedError } from '../../mcp/connection.js';
import { HostError, noSuchServer, serverRefused, serverUnavailable } from '../../mcp/host/errors.js';
import type { ChooseSavePath } from '../conversations/service.js';
import { ExportWriteError } from '../conversations/service.js';
import { ContextBudget, fitPromptMessages, fitResourceContents, MESSAGE_CONTEXT_CHARS, notesFrom, partsForViewer, shortLabel } from './budget.js';
import { ownSchemes, readRefusal } from '../../../preload/contract/rules/index.js';
import { base64Bytes } from '../model-context.js';

/** Most completion values passed on (the spec caps a response at 100). */
export const MAX_COMPLETIONS = 100;
/** Largest resource saved to a file (decoded bytes): 50 MB, counted as the window says sizes (decimal). */
export const MAX_SAVE_BYTES = 50_000_000;


/** The variable names of an RFC 6570 URI template (`{a}`, `{+b}`, `{?c,d}`), in order, unique. */
export function templateVariables(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    for (const raw of m[2]!.split(',')) {
      const name = raw.replace(/(\*|:\d+)$/, '').trim();
      if (name && !out.includes(name) && out.length < 32) out.push(name);
    }
  }
  return out;
}

/** The connection's own schemes: those of its listed resources (templates are added by the caller). */
function listedUris(conn: ReadyServer): string[] {
  return conn.resources.map((r) => r.uri);
}

/** Server failures as typed errors for the window (the server's words, bounded). */
function asTyped(err: unknown, server: string): Error {
  if (err instanceof HostError) return err;
  if (err instanceof NotConnectedError) return serverUnavailable(server, 'not_ready');
  const msg = err instanceof Error ? err.message : String(err);
  return serverRefused(server, shortLabel(msg, 500));
}

/** The composer's prompts and resources, over the host's live connections. */
export class ContextService {
  /** Template URIs by server, remembered from the last listing (for the scheme guard). */
  private readonly templateUris = new Map<string, string[]>();
  /** The completion request in flight per server, reference and argument (a newer one cancels it). */
  private readonly completing = new Map<string, AbortController>();
  /** Open viewers' subscriptions: `server\n uri` → count. */
  private readonly subscriptions = new Map<string, number>();

  /**
   * @param conns the host's connections
   * @param onUpdated receives `notifications/resources/updated` of subscribed resources
   * @param chooseSavePath Electron's save dialog; absent → content is returned to download
   */
  constructor(
    private readonly conns: ReadyServers,
    private readonly onUpdated: (server: string, uri: string) => void,
    private readonly chooseSavePath: ChooseSavePath | null = null,
  ) {}

  /** A ready server. @throws HostError('not_found' | 'conflict') */
  private ready(server: string): ReadyServer {
    const c = this.conns.ready(server);
    if (c) return c;
    if (!this.conns.names().includes(server)) throw noSuchServer(server.slice(0, 64));
    throw serverUnavailable(server, 'not_ready');
  }

  /** Schemes of the server's own resources (listed resources and known templates). */
  private schemes(server: string, conn: ReadyServer): Set<string> {
    return ownSchemes([...listedUris(conn), ...(this.templateUris.get(server) ?? [])]);
  }

  /**
   * A resource URI may be read from `server` only when it uses one of that server's own schemes.
   * Templates are listed first when the server has not been asked yet.
   * @throws HostError('forbidden') with the fact `resource_refused` (why: a scheme never read
   *   through a server, or one the server does not list)
   */
  private async guardRead(server: string, conn: ReadyServer, uri: string): Promise<void> {
    if (!this.templateUris.has(server)) await this.templatesOf(server, conn).catch(() => []);
    const why = readRefusal(uri, this.schemes(server, conn));
    if (!why) return;
    const shown = shortLabel(uri, 200);
    throw new HostError('forbidden', `"${shown}" is not one of the resources of server "${server}"; it is not read.`, undefined, { fact: { kind: 'resource_refused', server, uri: shown, why } });
  }

  private async templatesOf(server: string, conn: ReadyServer): Promise<ResourceTemplateView[]> {
    const r = await conn.listResourceTemplates();
    const views = r.items.slice(0, 500).map<ResourceTemplateView>((t) => ({
      server,
      uri_template: shortLabel(t.uriTemplate, 2000),
      name: shortLabel(t.name, 200),
      title: typeof t.title === 'string' ? shortLabel(t.title, 200) : null,
      description: shortLabel(t.description, 500),
      mime_type: typeof t.mimeType === 'string' ? shortLabel(t.mimeType, 128) : null,
      variables: templateVariables(String(t.uriTemplate)),
    }));
    this.templateUris.set(server, views.map((v) => v.uri_template));
    return views;
  }

  /** Resource templates of every ready server; a server that fails to list them is skipped. */
  async templates(): Promise<ResourceTemplateView[]> {
    const all = await Promise.all(
      this.conns.names().map(async (name) => {
        const c = this.conns.ready(name);
        if (!c || !c.supports('resources')) return [];
        return this.templatesOf(name, c).catch(() => []);
      }),
    );
    return all.flat();
  }

  /**
   * Suggestions for one argument (MCP `completion/complete`), at most {@link MAX_COMPLETIONS}.
   * @throws HostError when the server is not ready or refuses.
   */
  async complete(server: string, ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }, argument: { name: string; value: string }, contextArguments?: Record<string, string>): Promise<CompletionView> {
    const conn = this.ready(server);
    // The user typed on: the server is told to drop the previous request (`notifications/cancelled`).
    const key = `${server}\n${JSON.stringify(ref)}\n${argument.name}`;
    this.completing.get(key)?.abort();
    const ctrl = new AbortController();
    this.completing.set(key, ctrl);
    try {
      const r = await conn.complete({ ref, argument, ...(contextArguments && Object.keys(contextArguments).length ? { context: { arguments: contextArguments } } : {}) }, ctrl.signal);
      const values = Array.isArray(r.completion?.values) ? r.completion.values.filter((v): v is string => typeof v === 'string').slice(0, MAX_COMPLETIONS).map((v) => shortLabel(v, 1000)) : [];
      return { values, has_more: r.completion?.hasMore === true || (r.completion?.values?.length ?? 0) > MAX_COMPLETIONS };
    } catch (err) {
      if (ctrl.signal.aborted) return { values: [], has_more: false };
      throw asTyped(err, server);
    } finally {
      if (this.completing.get(key) === ctrl) this.completing.delete(key);
    }
  }

  /**
   * Resolve what the user attached to a message, in order, sharing one budget
   * (./budget.ts): each prompt's messages, each resource's contents.
   * @throws HostError for an unknown prompt, a URI not of the server, a server that refuses.
   */
  async resolve(refs: ContextRef[], signal?: AbortSignal): Promise<ContextEntry[]> {
    const budget = new ContextBudget();
    const out: ContextEntry[] = [];
    for (const ref of refs) {
      const from = budget.notes.length;
      if (ref.kind === 'text') {
        // Pasted text attached as a file: no server; fitted like a resource's text, with a larger share.
        const title = shortLabel(ref.name, 200);
        const r = budget.text(ref.text, MESSAGE_CONTEXT_CHARS);
        if (r.cut) budget.note(title, { kind: 'cut', chars: r.cut, uri: null });
        out.push({ kind: 'text', title, content: [{ type: 'text', text: r.text }], ...notesFrom(budget, from) });
        continue;
      }
      const conn = this.ready(ref.server);
      if (ref.kind === 'prompt') {
        const listed = conn.prompts.find((p) => p.name === ref.name);
        if (!listed) {
          const prompt = shortLabel(ref.name, 100);
          throw new HostError('not_found', `Server "${ref.server}" has no prompt named "${prompt}".`, undefined, { fact: { kind: 'prompt_unknown', server: ref.server, prompt } });
        }
        const missing = (listed.arguments ?? []).filter((a) => a.required && !(ref.arguments[a.name] ?? '').trim()).map((a) => shortLabel(a.name, 100));
        if (missing.length)
          throw new HostError('invalid_input', `The prompt "${listed.name}" needs: ${missing.join(', ')}.`, `arguments.${missing[0]}`, {
            fact: { kind: 'prompt_arguments', server: ref.server, prompt: shortLabel(listed.name, 100), missing: missing.slice(0, 32) },
          });
        let result;
        try {
          result = await conn.getPrompt(ref.name, ref.arguments, signal);
        } catch (err) {
          throw asTyped(err, ref.server);
        }
        const messages = fitPromptMessages(result.messages, budget, `prompt ${listed.name}`);
        out.push({ kind: 'prompt', server: ref.server, name: listed.name, title: shortLabel(listed.title ?? listed.name, 200), arguments: ref.arguments, messages, ...notesFrom(budget, from) });
      } else {
        await this.guardRead(ref.server, conn, ref.uri);
        let result;
        try {
          result = await conn.readResource(ref.uri, signal);
        } catch (err) {
          throw asTyped(err, ref.server);
        }
        const contents = Array.isArray(result.contents) ? result.contents.slice(0, 20) : [];
        const listed = conn.resources.find((r) => r.uri === ref.uri);
        const label = shortLabel(listed?.name ?? ref.uri, 200);
        const content = contents.map((c) => fitResourceContents(c, budget, label));
        if (contents.length === 0) budget.note(label, { kind: 'no_content', uri: null });
        if (Array.isArray(result.contents) && result.contents.length > 20) budget.note(label, { kind: 'more_parts', count: result.contents.length - 20 });
        const mime = listed?.mimeType ?? (contents[0] as { mimeType?: unknown } | undefined)?.mimeType;
        out.push({ kind: 'resource', server: ref.server, uri: ref.uri, title: label, mime_type: typeof mime === 'string' ? shortLabel(mime, 128) : null, content, ...notesFrom(budget, from) });
      }
    }
    return out;
  }

  /** Read a resource for the viewer. @throws HostError('forbidden' | 'not_found' | 'conflict' | 'invalid_input') */
  async read(server: string, uri: string): Promise<ResourceReadView> {
    const conn = this.ready(server);
    await this.guardRead(server, conn, uri);
    try {
      const r = await conn.readResource(uri);
      const fitted = partsForViewer(r.contents);
      return { server, uri, ...fitted, can_subscribe: conn.supports('subscribe') };
    } catch (err) {
      throw asTyped(err, server);
    }
  }

  /**
   * Save a resource's first part to a file: Electron asks where (save dialog); otherwise the
   * content is returned for the window to download. Over {@link MAX_SAVE_BYTES}: refused.
   * @throws HostError; ExportWriteError when the chosen path cannot be written.
   */
  async save(server: string, uri: string): Promise<ResourceSaveResult> {
    const conn = this.ready(server);
    await this.guardRead(server, conn, uri);
    let first: Record<string, unknown> | undefined;
    try {
      first = (await conn.readResource(uri)).contents?.[0] as Record<string, unknown> | undefined;
    } catch (err) {
      throw asTyped(err, server);
    }
    const base64 = typeof first?.blob === 'string' ? first.blob.replace(/\s+/g, '') : typeof first?.text === 'string' ? Buffer.from(first.text, 'utf8').toString('base64') : null;
    if (base64 === null) throw new HostError('invalid_input', 'The resource has no content to save.', undefined, { fact: { kind: 'resource_empty' } });
    const size = base64Bytes(base64);
    if (size > MAX_SAVE_BYTES)
      throw new HostError('invalid_input', `The resource is larger than ${MAX_SAVE_BYTES / 1_000_000} MB; it is not saved.`, undefined, { fact: { kind: 'resource_too_large', size_bytes: size, limit_bytes: MAX_SAVE_BYTES } });
    const mime = typeof first?.mimeType === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(first.mimeType) ? first.mimeType : 'application/octet-stream';
    const filename = resourceFileName(uri);
    if (!this.chooseSavePath) return { kind: 'content', filename, mime, base64 };
    const target = await this.chooseSavePath(filename);
    if (!target) return { kind: 'cancelled' };
    try {
      await fs.writeFile(target, Buffer.from(base64, 'base64'), { mode: 0o600 });
    } catch (err) {
      throw new ExportWriteError(target, (err as NodeJS.ErrnoException).code ?? null);
    }
    return { kind: 'saved', saved_to: target };
  }

  /** Follow a resource's updates while a viewer shows it (where the server supports subscribe). */
  async subscribe(server: string, uri: string): Promise<{ subscribed: boolean }> {
    const conn = this.ready(server);
    await this.guardRead(server, conn, uri);
    if (!conn.supports('subscribe')) return { subscribed: false };
    const key = `${server}\n${uri}`;
    const n = this.subscriptions.get(key) ?? 0;
    this.subscriptions.set(key, n + 1);
    if (n > 0) return { subscribed: true };
    try {
      await conn.subscribeResource(uri, (u) => this.onUpdated(server, shortLabel(u, 8192)));
      return { subscribed: true };
    } catch (err) {
      this.subscriptions.delete(key);
      throw asTyped(err, server);
    }
  }

  /** Stop following a resource (the last viewer of it closed). */
  async unsubscribe(server: string, uri: string): Promise<{ unsubscribed: boolean }> {
    const key = `${server}\n${uri}`;
    const n = this.subscriptions.get(key) ?? 0;
    if (n === 0) return { unsubscribed: false };
    if (n > 1) {
      this.subscriptions.set(key, n - 1);
      return { unsubscribed: true };
    }
    this.subscriptions.delete(key);
    await this.conns.ready(server)?.unsubscribeResource(uri).catch(() => undefined);
    return { unsubscribed: true };
  }
}

/** A file name for a saved resource: the URI's last segment, letters, digits, `.`, `_`, `-` only. */
export function resourceFileName(uri: string): string {
  const path = uri.split(/[?#]/)[0]!.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/*/, '');
  const last = decodeURIComponentSafe(path.split('/').filter(Boolean).pop() ?? '');
  const stem = [...last.normalize('NFC').replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[.-]+|-+$/g, '')].slice(0, 100).join('');
  return stem || 'resource';
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
