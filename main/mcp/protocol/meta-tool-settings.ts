/**
 * The user's choices for the host's own tools (`host__list_resources` …, ./meta-tools.ts), kept
 * in `<state dir>/host_tools.json` (0600, atomic write) in the shape of a server's `tools` map
 * (../tool-settings.ts): `{"tools": {"list_resources": {"approval": "always_allow"}}}`. They
 * belong to no configured server, so they cannot live in mcp_servers.json; without this file an
 * "Always allow" on a host tool's card had nowhere to go (docs/ARCHITECTURE.md "Permissions").
 * Read once, on first use; an unreadable file counts as no choices and is replaced at the next one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolSettingPatch } from '../../../preload/contract/index.js';
import { Mutex, writeFileAtomic } from '../../util/atomic-write.js';
import { applyToolSettingsPatch, parseToolSettings, type ToolSetting, type ToolSettingsMap } from '../tool-settings.js';

/** Name of the file inside the state dir. */
export const HOST_TOOLS_FILE = 'host_tools.json';

/** Owns host_tools.json. */
export class HostToolSettings {
  readonly file: string;
  private map: ToolSettingsMap | null = null;
  private readonly mutex = new Mutex();

  constructor(stateDir: string) {
    this.file = path.join(stateDir, HOST_TOOLS_FILE);
  }

  private read(): ToolSettingsMap {
    if (this.map) return this.map;
    try {
      const doc = JSON.parse(readFileSync(this.file, 'utf8')) as { tools?: unknown };
      this.map = parseToolSettings(doc.tools);
    } catch {
      this.map = {};
    }
    return this.map;
  }

  /** The stored setting of a host tool (by its real name, e.g. `list_resources`); undefined = defaults. */
  get(tool: string): Readonly<ToolSetting> | undefined {
    const map = this.read();
    return Object.prototype.hasOwnProperty.call(map, tool) ? map[tool] : undefined;
  }

  /**
   * Apply a PATCH to one host tool's setting and write the file; resolves once it is on disk.
   * @throws ToolSettingsError for a patch the map refuses; the fs error of the write
   */
  set(tool: string, patch: NonNullable<ToolSettingPatch>): Promise<Readonly<ToolSetting> | undefined> {
    return this.mutex.run(async () => {
      const next = applyToolSettingsPatch(this.read(), { [tool]: patch });
      await writeFileAtomic(this.file, JSON.stringify({ tools: next }, null, 2) + '\n');
      this.map = next;
      return this.get(tool);
    });
  }
}
