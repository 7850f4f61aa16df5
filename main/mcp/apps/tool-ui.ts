/**
 * What a tool declares for MCP Apps (ext-apps spec "Tool metadata"): the `ui://` resource of its
 * view (`_meta.ui.resourceUri`, or the older flat `_meta["ui/resourceUri"]`) and who may call it
 * (`_meta.ui.visibility`: `"model"`, `"app"`; both when absent).
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ToolAudience } from '../../../preload/contract/index.js';

/** The MIME type of an MCP App view resource (ext-apps `RESOURCE_MIME_TYPE`). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The extension's id in `capabilities.extensions` (ext-apps `EXTENSION_ID`). */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/**
 * What this host adds to its client capabilities (ext-apps spec "Capability negotiation"):
 * `extensions["io.modelcontextprotocol/ui"].mimeTypes`.
 */
export const APPS_CLIENT_CAPABILITIES: { extensions: Record<string, { mimeTypes: string[] }> } = { extensions: { [APPS_EXTENSION_ID]: { mimeTypes: [APP_MIME_TYPE] } } };

function uiMeta(tool: Partial<Tool>): Record<string, unknown> {
  const ui = (tool._meta as Record<string, unknown> | undefined)?.ui;
  return typeof ui === 'object' && ui !== null ? (ui as Record<string, unknown>) : {};
}

/** The tool's view resource URI, when it declares a `ui://` one. */
export function toolUiResourceUri(tool: Partial<Tool>): string | null {
  const meta = (tool._meta ?? {}) as Record<string, unknown>;
  const uri = uiMeta(tool).resourceUri ?? meta['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length <= 8192 ? uri : null;
}

/** The declared visibility, or both audiences when absent or malformed. */
function visibility(tool: Partial<Tool>): string[] {
  const v = uiMeta(tool).visibility;
  return Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : ['model', 'app'];
}

/** Whether the model may be offered this tool (`visibility` includes `"model"`). */
export function visibleToModel(tool: Partial<Tool>): boolean {
  return visibility(tool).includes('model');
}

/** Whether a view may call this tool (`visibility` includes `"app"`). */
export function visibleToApp(tool: Partial<Tool>): boolean {
  return visibility(tool).includes('app');
}

/** Who may call this tool, as the server card shows it (see `ToolAudience`). */
export function toolAudience(tool: Partial<Tool>): ToolAudience {
  const model = visibleToModel(tool);
  const app = visibleToApp(tool);
  return model && app ? 'model_and_app' : model ? 'model' : app ? 'app' : 'none';
}
