/**
 * Listing what a server offers, page by page (MCP spec "Utilities: Pagination"): the guard that
 * follows page cursors, and the loose page schema for `tools/list` (tools are then checked one by
 * one in main/mcp/tool-check.ts). docs/ARCHITECTURE.md "Protocol eras".
 */
import { z } from 'zod';

/**
 * One `tools/list` page, checked loosely (MCP spec "Tools: Listing Tools"): each tool needs a
 * string `name`; the rest of a tool is checked by the app one tool at a time.
 */
export const ToolsPageSchema = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })),
  nextCursor: z.string().optional(),
});

/** Why a listing stopped before the server's last page (MCP spec "Pagination"). */
export type ListStop = 'repeated_cursor' | 'too_many_pages';

/**
 * Guarded pagination (MCP spec "Utilities: Pagination"): follows `nextCursor` page by page. A
 * missing or empty-string cursor is the end. Items whose `key` was already listed are dropped; a
 * cursor seen before, or a page that brings nothing new (a server that ignores the cursor), stops
 * the walk with what was listed so far (`stopped: 'repeated_cursor'`), as does page `maxPages`
 * (`'too_many_pages'`). @throws the error of a failed page.
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined | null }>,
  maxPages = 100,
  key: (item: T) => unknown = (item) => item,
): Promise<{ items: T[]; stopped: ListStop | null }> {
  const items: T[] = [];
  const keys = new Set<unknown>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const r = await fetchPage(cursor);
    let fresh = 0;
    for (const item of r.items) {
      const k = key(item);
      if (keys.has(k)) continue;
      keys.add(k);
      items.push(item);
      fresh++;
    }
    if (r.nextCursor === undefined || r.nextCursor === null || r.nextCursor === '') return { items, stopped: null };
    if (cursors.has(r.nextCursor) || (page > 0 && fresh === 0)) return { items, stopped: 'repeated_cursor' };
    cursors.add(r.nextCursor);
    cursor = r.nextCursor;
  }
  return { items, stopped: 'too_many_pages' };
}

