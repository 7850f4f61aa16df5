/**
 * What the window can do with saved conversations: list, open, rename, delete, search, export.
 * Runs belong to the ChatService; this service asks it whether a conversation runs and stops a
 * run before deleting. See docs/ARCHITECTURE.md "Conversations".
 */
import { promises as fs } from 'node:fs';
import type { ConversationExport, ConversationSummary, ConversationView, SearchHit } from '../../../preload/contract/index.js';
import { LIMITS } from '../../../preload/contract/index.js';
import { ProfileNotFoundError } from '../profiles.js';
import { renderExport } from './export.js';
import { ConversationNotFoundError, type ConversationStore } from './store.js';

/**
 * Asks the user where to save a file (Electron: the system save dialog). Resolves to an absolute
 * path, or null when the user cancelled.
 */
export type ChooseSavePath = (suggestedName: string) => Promise<string | null>;

const WRITE_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the disk is read-only',
  ENOSPC: 'the disk is full',
  ENOENT: 'the folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
};

/**
 * Writing a file the user chose (an export, a saved resource) failed: `path` and the system's
 * `errno` code (`EACCES`, …) are what the window words (the fact `write_failed`); the message says
 * it in English for logs.
 */
export class ExportWriteError extends Error {
  override name = 'ExportWriteError';
  constructor(
    readonly path: string,
    readonly errno: string | null,
  ) {
    super(`Could not write ${path}: ${(errno ? WRITE_ERRORS[errno] : undefined) ?? `the system said ${errno || 'no'}`}.`);
  }
}

/** The part of the chat service this one needs. */
export interface RunControl {
  isRunning(conversationId: string): boolean;
  stopAndWait(conversationId: string): Promise<void>;
}

/** Saved conversations, for the window. */
export class ConversationService {
  constructor(
    private readonly store: ConversationStore,
    private readonly runs: RunControl,
    private readonly onRemoved: (id: string) => void,
    private readonly onChanged: (summary: ConversationSummary) => void,
    private readonly chooseSavePath: ChooseSavePath | null = null,
    private readonly profileExists: (id: string) => Promise<boolean> = async () => true,
  ) {}

  private withRunning<T extends { id: string }>(s: T): T & { running: boolean } {
    return { ...s, running: this.runs.isRunning(s.id) };
  }

  /** Newest first, and the conversation to reopen. */
  list(): { conversations: ConversationSummary[]; last_opened: string | null } {
    return { conversations: this.store.list(LIMITS.conversationList).map((s) => this.withRunning(s)), last_opened: this.store.lastOpened() };
  }

  /**
   * Open a conversation: its summary and every entry as the window shows it (a JSON array text,
   * forwarded as stored); remembered as last opened. @throws ConversationNotFoundError
   */
  get(id: string): ConversationView {
    const items_json = this.store.viewJson(id);
    this.store.setLastOpened(id);
    return { ...this.withRunning(this.store.summary(id)!), items_json };
  }

  /** Rename; the title is cleaned and bounded. */
  rename(id: string, title: string): ConversationSummary {
    this.store.rename(id, title);
    const s = this.withRunning(this.store.summary(id)!);
    this.onChanged(s);
    return s;
  }

  /**
   * Choose the conversation's model profile (null: follow the default). The profile must exist.
   * @throws ConversationNotFoundError; ProfileNotFoundError
   */
  async setProfile(id: string, profileId: string | null): Promise<ConversationSummary> {
    if (profileId !== null && !(await this.profileExists(profileId))) throw new ProfileNotFoundError(profileId);
    this.store.setProfile(id, profileId);
    const s = this.withRunning(this.store.summary(id)!);
    this.onChanged(s);
    return s;
  }

  /** Choose which servers' tools the model gets (null: all). @throws ConversationNotFoundError */
  setToolServers(id: string, servers: string[] | null): ConversationSummary {
    this.store.setToolServers(id, servers);
    const s = this.withRunning(this.store.summary(id)!);
    this.onChanged(s);
    return s;
  }

  /**
   * A server was renamed: conversations whose tool choice names it name it `to` now, and each
   * changed one is announced (docs/ARCHITECTURE.md "Renaming a server").
   */
  renameToolServer(from: string, to: string): void {
    for (const id of this.store.renameToolServer(from, to)) {
      const s = this.store.summary(id);
      if (s) this.onChanged(this.withRunning(s));
    }
  }

  /** Delete (its run, if any, is stopped first). @throws ConversationNotFoundError */
  async remove(id: string): Promise<void> {
    if (!this.store.has(id)) throw new ConversationNotFoundError(id);
    await this.runs.stopAndWait(id);
    this.store.remove(id);
    this.onRemoved(id);
  }

  /** Full-text search (see ConversationStore.search). */
  search(query: string): SearchHit[] {
    return this.store.search(query);
  }

  /**
   * Export as Markdown or JSON. With a save dialog (Electron) the file is written where the user
   * chose; otherwise the content is returned for the window to download.
   * @throws ExportWriteError when the chosen path cannot be written; ConversationNotFoundError.
   */
  async export(id: string, format: 'markdown' | 'json'): Promise<ConversationExport> {
    const doc = renderExport(this.store.get(id), format, Date.now());
    if (!this.chooseSavePath) return { kind: 'content', ...doc };
    const target = await this.chooseSavePath(doc.filename);
    if (!target) return { kind: 'cancelled' };
    try {
      await fs.writeFile(target, doc.content, { mode: 0o600 });
    } catch (err) {
      throw new ExportWriteError(target, (err as NodeJS.ErrnoException).code ?? null);
    }
    return { kind: 'saved', saved_to: target };
  }
}
