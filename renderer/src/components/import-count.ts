/**
 * What Settings → MCP servers → Import will really do with a preview (main/mcp/host/import-export.ts
 * builds it): how many entries are new, replaced, skipped (an existing name without "replace",
 * or an entry the text cannot read) and refused (tools named like another server's). Pure.
 */
import type { ImportPreview } from '../../../preload/contract/index.js';

/** The counts of one preview with or without "replace servers that exist". */
export interface ImportCounts {
  fresh: number;
  replaced: number;
  skipped: number;
  refused: number;
  /** Entries the import adds or replaces. */
  imported: number;
  /** The text lists no servers at all (`{}`, `[]`, an empty `mcpServers`). */
  nothing: boolean;
}

/** Count a preview's entries by what the import does with each. */
export function importCounts(preview: ImportPreview, replace: boolean): ImportCounts {
  const existing = preview.servers.filter((s) => s.exists).length;
  const refused = preview.servers.filter((s) => !s.exists && s.collides_with !== null).length;
  const fresh = preview.servers.length - existing - refused;
  const replaced = replace ? existing : 0;
  const skipped = (replace ? 0 : existing) + preview.unreadable.length;
  return { fresh, replaced, skipped, refused, imported: fresh + replaced, nothing: preview.servers.length === 0 && preview.unreadable.length === 0 };
}
