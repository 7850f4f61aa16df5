/**
 * The host side of one MCP App view (docs/ARCHITECTURE.md "MCP Apps"): an ext-apps `AppBridge`
 * over a `PostMessageTransport` to the view's sandbox frame, wired to what this window offers —
 * tool calls and resource reads of the view's own server (through main's `apps.*` channels,
 * which apply the guards), messages into the conversation, links after consent, size and display
 * mode changes. No protocol is written here: the bridge speaks the ext-apps spec.
 */
import { AppBridge, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppViewLoad, AppViewPermission, ContentView, TranscriptItem } from '../../../preload/contract/index.js';
import { call } from '../api';
import type { PreparingTool } from '../store/chat';
import { currentHostStyles } from './host-styles';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;
type ReadyView = Extract<AppViewLoad, { kind: 'ready' }>;

/** What the bridge asks of the window; each answer is the user's or main's. */
export interface BridgeHandlers {
  /** Add a user message to the conversation (`ui/message`). Resolves false when refused. */
  sendMessage(text: string): Promise<boolean>;
  /** Ask the user before opening a link (`ui/open-link`); resolves whether it was opened. */
  openLink(url: string): Promise<boolean>;
  /** The view's preferred height in CSS pixels (`ui/notifications/size-changed`). */
  resize(height: number): void;
  /** Switch inline / fullscreen (`ui/request-display-mode`); returns the mode now in effect. */
  setDisplayMode(mode: 'inline' | 'fullscreen'): 'inline' | 'fullscreen';
}

/** The host context a view starts with (ext-apps `McpUiHostContext`); `callId` is its tool call's. */
export function hostContext(view: ReadyView, callId: string, width: number, locale: string): McpUiHostContext {
  const dark = typeof matchMedia === 'function' && !matchMedia('(prefers-color-scheme: light)').matches;
  return {
    toolInfo: { id: callId, tool: { name: view.tool.name, ...(view.tool.title ? { title: view.tool.title } : {}), ...(view.tool.description ? { description: view.tool.description } : {}), inputSchema: view.tool.input_schema as { type: 'object' } } },
    theme: dark ? 'dark' : 'light',
    styles: currentHostStyles(),
    displayMode: 'inline',
    availableDisplayModes: ['inline', 'fullscreen'],
    containerDimensions: { width: Math.round(width), maxHeight: 640 },
    locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'desktop',
    userAgent: 'OpenProgram',
  };
}

/** A saved tool result as MCP `CallToolResult` content (ext-apps `ui/notifications/tool-result`). */
export function toolResultOf(item: ToolItem): { content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }>; isError?: boolean; structuredContent?: Record<string, unknown> } {
  const content = item.content.map((c: ContentView) => (c.type === 'text' ? { type: 'text' as const, text: c.text } : { type: 'image' as const, data: c.data, mimeType: c.mimeType }));
  if (item.state === 'error' && content.length === 0 && item.error) content.push({ type: 'text', text: item.error });
  const s = item.structured_content;
  const structured = typeof s === 'object' && s !== null && !Array.isArray(s) ? { structuredContent: s as Record<string, unknown> } : {};
  return item.state === 'error' ? { content, isError: true, ...structured } : { content, ...structured };
}

/** What a view has been sent of its tool call so far. */
export interface SentToView {
  /** JSON of the last partial input sent (null: none). */
  partialJson: string | null;
  /** The complete input was sent. */
  input: boolean;
  /** The result or the cancellation was sent. */
  outcome: boolean;
}

/**
 * Send an initialized view what it lacks of its tool call (ext-apps spec "Notifications (Host →
 * View)"): while the model still writes the input, its newest partial arguments
 * (`ui/notifications/tool-input-partial`); once the call's entry exists, the complete input
 * (`ui/notifications/tool-input`) once, then the result (`tool-result`) or the cancellation
 * (`tool-cancelled`) once. `sent` is updated in place.
 */
export function sendCallState(bridge: AppBridge, call: ToolItem | PreparingTool, sent: SentToView): void {
  if (call.kind === 'preparing-tool') {
    if (sent.input) return;
    const json = JSON.stringify(call.args);
    if (json === sent.partialJson) return;
    sent.partialJson = json;
    void bridge.sendToolInputPartial({ arguments: call.args });
    return;
  }
  if (!sent.input) {
    sent.input = true;
    void bridge.sendToolInput({ arguments: (typeof call.args === 'object' && call.args !== null ? call.args : {}) as Record<string, unknown> });
  }
  if (sent.outcome) return;
  if (call.state === 'ok' || call.state === 'error') {
    sent.outcome = true;
    void bridge.sendToolResult(toolResultOf(call) as Parameters<AppBridge['sendToolResult']>[0]);
  } else if (call.state === 'cancelled' || call.state === 'interrupted' || call.state === 'approval_interrupted' || call.state === 'denied') {
    sent.outcome = true;
    void bridge.sendToolCancelled({ reason: call.state });
  }
}

/**
 * Connect a bridge to the sandbox frame `frame` (its window must exist; connect before the frame
 * loads so the proxy's ready notification is seen). The view's HTML goes to the proxy once it
 * says it is ready; `granted` are the device permissions the user allowed. The view's requests
 * name its instance (`view.view_instance`, issued by main for one call and its server), so they
 * reach that server only. Once the view is initialized, `onInitialized` gets the bridge: the
 * caller sends the tool's input and result.
 */
export async function connectBridge(opts: {
  frame: HTMLIFrameElement;
  view: ReadyView;
  granted: AppViewPermission[];
  context: McpUiHostContext;
  handlers: BridgeHandlers;
  onInitialized: (bridge: AppBridge) => void;
  version: string;
}): Promise<AppBridge> {
  const { view, handlers } = opts;
  const win = opts.frame.contentWindow;
  if (!win) throw new Error('The view frame has no window.');
  const bridge = new AppBridge(
    null,
    { name: 'OpenProgram', version: opts.version },
    { openLinks: {}, serverTools: {}, serverResources: {}, message: { text: {} }, updateModelContext: { text: {} }, sandbox: { csp: view.csp, permissions: Object.fromEntries(opts.granted.map((p) => [p, {}])) } },
    { hostContext: opts.context },
  );
  bridge.onsandboxready = () => {
    void bridge.sendSandboxResourceReady({ html: view.html, csp: view.csp, permissions: Object.fromEntries(opts.granted.map((p) => [p, {}])) });
  };
  bridge.oninitialized = () => opts.onInitialized(bridge);
  // Every request names only the view instance main issued: main takes the server, the call and
  // the conversation from it (main/mcp/apps/view-instances.ts).
  const instance = view.view_instance;
  bridge.oncalltool = async (params) =>
    (await call('apps.callTool', { view_instance: instance, tool: params.name, arguments: (params.arguments ?? {}) as Record<string, unknown> })) as Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>;
  bridge.onreadresource = async (params) => (await call('apps.readResource', { view_instance: instance, uri: params.uri })) as Awaited<ReturnType<NonNullable<AppBridge['onreadresource']>>>;
  bridge.onmessage = async (params) => {
    const text = params.content
      .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
      .map((c) => c.text)
      .join('\n')
      .trim();
    if (!text) return { isError: true };
    return (await handlers.sendMessage(text.slice(0, 100_000))) ? {} : { isError: true };
  };
  bridge.onupdatemodelcontext = async (params) => {
    const text = [
      ...(params.content ?? []).filter((c): c is { type: 'text'; text: string } => c.type === 'text').map((c) => c.text),
      ...(params.structuredContent ? [JSON.stringify(params.structuredContent)] : []),
    ]
      .join('\n')
      .slice(0, 16_384);
    await call('apps.updateModelContext', { view_instance: instance, text });
    return {};
  };
  // Its log messages go to its server's log (Settings → the server → Logs), as `view` entries.
  bridge.addEventListener('loggingmessage', (p) => {
    void call('apps.log', { view_instance: instance, level: p.level, ...(p.logger ? { logger: p.logger.slice(0, 128) } : {}), data: p.data }).catch(() => undefined);
  });
  bridge.onopenlink = async ({ url }) => ((await handlers.openLink(url)) ? {} : { isError: true });
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height)) handlers.resize(height);
  };
  bridge.onrequestdisplaymode = async ({ mode }) => ({ mode: handlers.setDisplayMode(mode === 'fullscreen' ? 'fullscreen' : 'inline') });
  await bridge.connect(new PostMessageTransport(win, win));
  return bridge;
}
