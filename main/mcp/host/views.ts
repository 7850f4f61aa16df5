/**
 * Server views: the masked `ServerView` of one server (config with every secret masked, plus live
 * state, tools and sign-in state). The only producer of server objects that leave main
 * (docs/ARCHITECTURE.md "Masked views only").
 */
import { toolAudience, toolUiResourceUri, visibleToModel } from '../apps/tool-ui.js';
import type { SandboxLauncher } from '../sandbox/launcher.js';
import { effectiveSandbox } from '../config/sandbox-settings.js';
import type { Tool } from '@modelcontextprotocol/client';
import type { AuthView, ServerIssue, ServerState, ServerView, ToolAudience, ToolPinStatus } from '../../../preload/contract/index.js';
import type { RegisteredTool } from '../adapter.js';
import type { ServerConfig } from '../config.js';
import { maskSecret } from '../../secrets/mask.js';
import { transportFor } from '../transports/registry.js';
import type { McpConnection } from '../connection.js';
import type { ToolSetting, ToolSettingsMap } from '../tool-settings.js';
import { protocolView } from '../protocol/view.js';
import type { RecoveryView } from './recovery.js';

/** Whether a tool is enabled under a server's per-tool settings (absent = enabled). */
export function isToolEnabled(settings: ToolSettingsMap | undefined, tool: string): boolean {
  return !(settings && Object.prototype.hasOwnProperty.call(settings, tool) && settings[tool]!.enabled === false);
}

/** Auth status a view needs, gathered by the host. */
export interface AuthStatus {
  state: AuthView['state'];
  expiresAt: number | null;
}

function authView(cfg: ServerConfig, status: AuthStatus | null): AuthView {
  const none: AuthView = { kind: 'none', has_token: false, masked_token: '', has_client_secret: false, masked_client_secret: '', client_id: null, scope: null, state: null, expires_at: null };
  const auth = transportFor(cfg).auth(cfg);
  if (auth.kind === 'none') return none;
  if (auth.kind === 'bearer') {
    const m = maskSecret(auth.token);
    return { ...none, kind: 'bearer', has_token: m.has_value, masked_token: m.masked };
  }
  const cs = maskSecret(auth.client_secret);
  return {
    ...none,
    kind: 'oauth',
    has_token: status?.state === 'authorized',
    has_client_secret: cs.has_value,
    masked_client_secret: cs.masked,
    client_id: auth.client_id ?? null,
    scope: auth.scope ?? null,
    state: status?.state ?? 'unknown',
    expires_at: status?.expiresAt ?? null,
  };
}

/** The tool as the server lists it on this connection, if it does. */
function listed(conn: McpConnection | undefined, tool: string): Tool | undefined {
  return conn?.tools.find((x) => x.name === tool);
}

/** Whether a server's tool is withheld from the model by its MCP Apps visibility (main/mcp/apps/tool-ui.ts). */
function isAppOnly(conn: McpConnection, tool: string): boolean {
  const t = listed(conn, tool);
  return !!t && !visibleToModel(t);
}

/** Who may call a server's tool (docs/ARCHITECTURE.md "MCP Apps"); a tool not listed by the connection keeps the default. */
function audienceOf(conn: McpConnection | undefined, tool: string): ToolAudience {
  const t = listed(conn, tool);
  return t ? toolAudience(t) : 'model_and_app';
}

/** Whether a server's tool declares an MCP App view (main/mcp/apps/tool-ui.ts). */
function hasView(conn: McpConnection | undefined, tool: string): boolean {
  const t = listed(conn, tool);
  return !!t && toolUiResourceUri(t) !== null;
}

/**
 * The masked command, URL and their secret parts of a config, as every view shows them (also the
 * import preview): secret arguments and URL userinfo / query values as `***`, parts as
 * `{has_value, masked}`. `isKnownSecret` masks, too, any argument equal to a stored secret.
 */
export function maskedTarget(cfg: ServerConfig, isKnownSecret?: (v: string) => boolean): Pick<ServerView, 'command' | 'secret_args' | 'url' | 'url_secrets'> {
  return transportFor(cfg).maskedTarget(cfg, isKnownSecret);
}

/**
 * A server's state as the window shows it (docs/ARCHITECTURE.md "Status"): `disabled` when the
 * config says so, `starting` before a connection exists, else the connection's state with the
 * crash recovery's restart number (`starting`) or retry (`error`).
 */
export function serverState(enabled: boolean, conn: McpConnection | undefined, recovery: RecoveryView): ServerState {
  if (!enabled) return { kind: 'disabled' };
  const s = conn?.state ?? { kind: 'starting' as const };
  switch (s.kind) {
    case 'starting':
      return { kind: 'starting', restart: recovery.kind === 'restarting' ? recovery.attempt : null };
    case 'error':
      return { kind: 'error', failure: s.failure, retry: recovery.kind === 'scheduled' || recovery.kind === 'gave_up' ? recovery : null };
    default:
      return s;
  }
}

/** A local server's sandbox fields (`sandbox`, `sandbox_settings`, `sandbox_denials`); nulls for a remote one. */
function sandboxView(cfg: ServerConfig, conn: McpConnection | undefined, launcher: SandboxLauncher | null): Pick<ServerView, 'sandbox' | 'sandbox_settings' | 'sandbox_denials'> {
  if (cfg.type !== 'local') return { sandbox: null, sandbox_settings: null, sandbox_denials: [] };
  const settings = effectiveSandbox(cfg.sandbox);
  const live = conn?.sandbox?.state ?? null;
  // Without a launcher (tests, benchmarks) nothing is sandboxed: say so rather than show a policy.
  const state = live ?? (launcher ? launcher.expected(settings) : { kind: 'unavailable' as const, reason: 'platform' as const, platform: process.platform, detail: null });
  return { sandbox: state, sandbox_settings: settings, sandbox_denials: conn?.sandbox?.denials ?? [] };
}

/**
 * Produce the masked view of one server: config with every secret masked (env/header values,
 * secret arguments, URL userinfo and query values), plus live state ({@link serverState}). `namespaceMates`: other
 * configured servers whose tools share this one's namespace (`shares_namespace_with`). The only
 * producer of server objects that leave main (docs/ARCHITECTURE.md "Masked views only"); the host
 * stamps its `seq`.
 * @param isKnownSecret whether a value is a stored secret (masks a command argument equal to one)
 * @param sandbox the app's sandbox launcher (null: local servers run unsandboxed, and their view says so)
 * @param pinOf a listed tool's definition against its pin, by real name (main/mcp/pins/)
 * @param held whether a tool is held back from the model until its definition is accepted
 */
export function toView(
  name: string,
  cfg: ServerConfig,
  conn: McpConnection | undefined,
  tools: RegisteredTool[],
  renamed: readonly ServerIssue[],
  recovery: RecoveryView = { kind: 'none' },
  auth: AuthStatus | null = null,
  defaultRoots: readonly string[] = [],
  namespaceMates: readonly string[] = [],
  isKnownSecret?: (v: string) => boolean,
  sandbox: SandboxLauncher | null = null,
  pinOf: (tool: string) => ToolPinStatus = () => ({ kind: 'pinned' }),
  held: (tool: string) => boolean = () => false,
): Omit<ServerView, 'seq'> {
  const state = serverState(cfg.enabled, conn, recovery);
  const status = state.kind;
  return {
    name,
    type: cfg.type,
    ...maskedTarget(cfg, isKnownSecret),
    ...transportFor(cfg).maskedValues(cfg),
    auth: authView(cfg, auth),
    enabled: cfg.enabled,
    timeout_seconds: cfg.timeout_seconds,
    state,
    resolved_command: conn?.resolvedCommand ?? null,
    tools:
      status === 'ready'
        ? tools.map((t) => {
            const s: ToolSetting | undefined = cfg.tools && Object.prototype.hasOwnProperty.call(cfg.tools, t.original_name) ? cfg.tools[t.original_name] : undefined;
            return {
              name: t.name,
              original_name: t.original_name,
              title: t.title,
              description: t.description,
              input_schema: t.input_schema,
              annotations: { ...t.annotations },
              enabled: s?.enabled !== false,
              approval: s?.approval ?? null,
              audience: audienceOf(conn, t.original_name),
              has_view: hasView(conn, t.original_name),
              pin: pinOf(t.original_name),
            };
          })
        : [],
    // Tools only MCP App views may call (`visibility: ["app"]`) are never offered to the model, nor held-back ones.
    tool_count: status === 'ready' ? tools.filter((t) => isToolEnabled(cfg.tools, t.original_name) && !(conn && isAppOnly(conn, t.original_name)) && !held(t.original_name)).length : 0,
    resources:
      status === 'ready' && conn
        ? conn.resources.slice(0, 500).map((r) => ({ uri: r.uri, name: r.name, description: r.description ?? '', mime_type: r.mimeType ?? null }))
        : [],
    prompts:
      status === 'ready' && conn
        ? conn.prompts.slice(0, 500).map((p) => ({
            name: p.name,
            description: p.description ?? '',
            arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: a.description ?? '', required: a.required === true })),
          }))
        : [],
    issues: status === 'ready' && conn ? [...conn.issues, ...renamed] : [],
    shares_namespace_with: [...namespaceMates],
    stderr_tail: conn?.stderrTail() ?? [],
    ...sandboxView(cfg, conn, sandbox),
    server_info: conn?.serverInfo ? { ...conn.serverInfo, protocol_version: conn.protocol?.version ?? null } : null,
    protocol: protocolView(cfg, conn, defaultRoots),
  };
}
