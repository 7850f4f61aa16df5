/**
 * The host's tool table: every ready server's tools under their namespaced names
 * (`{server}__{tool}`, built by ../adapter.ts), each checked against its pin (../pins/), and the
 * subset offered to the model — the table minus the tools the user disabled, those only MCP App
 * views may call, and, when the user chose to hold them back, those not accepted since they
 * changed or appeared (docs/ARCHITECTURE.md "Tool names and result content", "Pinned tool definitions").
 */
import type { Tool } from '@modelcontextprotocol/client';
import { buildToolTable, type RegisteredTool, type ServerTool, type ToolRenamed, type ToolTable } from '../adapter.js';
import type { ToolPinStatus } from '../../../preload/contract/index.js';
import { programIdentity, type ConfigStore } from '../config.js';
import type { McpConnection } from '../connection.js';
import { META_SERVER, metaToolsFor } from '../protocol/meta-tools.js';
import { readyServer } from './ready-server.js';
import { visibleToModel } from '../apps/tool-ui.js';
import type { ToolPins } from '../pins/index.js';
import type { ToolSetting } from '../tool-settings.js';

const PINNED: ToolPinStatus = { kind: 'pinned' };

/** The registered tools and the offered ones; rebuilt when a server's status or tools change. */
export class ToolRegistry {
  private table: ToolTable = buildToolTable([]);
  /** The table's tools minus the ones the user disabled: what the model is offered. */
  private offered: RegisteredTool[] = [];
  /** `{server}\u0000{tool}` of tools only views may call (MCP Apps `visibility: ["app"]`). */
  private appOnly = new Set<string>();
  /** Per listed tool object, its table entry and registered form: a rebuild that did not re-list allocates no new ones. */
  private readonly serverTools = new WeakMap<Tool, ServerTool>();
  private readonly registered = new WeakMap<ServerTool, RegisteredTool>();

  /**
   * @param store the configured servers (file order)
   * @param settingOf a tool's per-tool setting, by server (or `@host`) and real name
   * @param pins the pins every listing is checked against
   * @param onChanged called with every registered tool when the set of names changed
   */
  constructor(
    private readonly store: ConfigStore,
    private readonly settingOf: (server: string, tool: string) => Readonly<ToolSetting> | undefined,
    private readonly pins: ToolPins,
    private readonly onChanged: (tools: RegisteredTool[]) => void,
  ) {}

  /** Every registered tool, disabled ones included. */
  get all(): RegisteredTool[] {
    return this.table.tools;
  }

  /** The tools offered to the model (disabled ones left out). */
  get offeredTools(): RegisteredTool[] {
    return this.offered;
  }

  /** A registered tool by its namespaced name (disabled tools included). */
  byName(name: string): RegisteredTool | undefined {
    return this.table.byName.get(name);
  }

  /** The registered tools of one server. */
  ofServer(server: string): RegisteredTool[] {
    return this.table.tools.filter((t) => t.server === server);
  }

  /** One server's tools renamed because their name was taken (collisions), as issues of its view. */
  renames(server: string): ToolRenamed[] {
    return this.table.renames.get(server) ?? [];
  }

  /**
   * Rebuild the table from the ready connections, in file order; empty once shutdown began.
   * Announces the new list when its names changed.
   */
  rebuild(conns: ReadonlyMap<string, McpConnection>, shuttingDown: boolean): void {
    const before = this.table.tools.map((t) => t.name).join('\n');
    const all = [];
    const appOnly = new Set<string>();
    if (!shuttingDown) {
      for (const name of this.store.names()) {
        const c = conns.get(name);
        if (!c || c.status !== 'ready') continue;
        // Pins first-seen definitions; remembered while the listing is the same array.
        this.pins.check(name, programIdentity(c.config), c.tools);
        for (const t of c.tools) if (!visibleToModel(t)) appOnly.add(`${name}\u0000${t.name}`);
        for (const t of c.tools) {
          let st = this.serverTools.get(t);
          if (!st || st.server !== name) this.serverTools.set(t, (st = { server: name, name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown>, title: t.title, annotations: t.annotations }));
          all.push(st);
        }
      }
    }
    // The host's own tools (../protocol/meta-tools.ts) are named first, so a server tool that
    // would take one of their names gets the hash suffix and the warning, never the reverse.
    const meta = shuttingDown ? [] : metaToolsFor([...conns.values()].filter((c) => c.status === 'ready').map(readyServer));
    this.table = buildToolTable([...meta, ...all], this.registered);
    for (const t of this.table.tools.slice(0, meta.length)) t.server = META_SERVER;
    this.appOnly = appOnly;
    this.refreshOffered();
    if (this.table.tools.map((t) => t.name).join('\n') !== before) this.onChanged(this.table.tools);
  }

  /**
   * A registered tool's definition against its pin, as last checked (`pinned` for the host's own
   * tools, which are the app's, and for a tool not checked).
   */
  pinOf(server: string, tool: string): ToolPinStatus {
    if (server === META_SERVER) return PINNED;
    return this.pins.current(server, tool)?.status ?? PINNED;
  }

  /** Recompute the offered tools after the table, a server's per-tool settings or a pin changed. */
  refreshOffered(): void {
    const hold = this.pins.holdUnaccepted();
    this.offered = this.table.tools.filter(
      (t) => this.settingOf(t.server, t.original_name)?.enabled !== false && !this.appOnly.has(`${t.server}\u0000${t.original_name}`) && !(hold && this.pinOf(t.server, t.original_name).kind !== 'pinned'),
    );
  }
}
