/**
 * An MCP App view beside its tool card (docs/ARCHITECTURE.md "MCP Apps"). Loads the view through
 * main (`apps.view`), asks the user before granting device permissions the view declares, frames
 * the sandbox page from the view origin (never this window's origin; no access to
 * `window.openprogram`), and runs the host side of the ext-apps protocol (./bridge.ts). The view
 * may start while the model still writes the call's input (a provisional row; it gets the partial
 * input), and the same frame goes on when the call's entry arrives. The view is rebuilt from the
 * saved tool input and result when the conversation is opened again. Close view and Show app view
 * are saved with the conversation (`apps.setViewClosed`), so a closed view stays closed — no frame,
 * nothing read — until the user shows it again.
 */
import { useEffect, useRef, useState } from 'react';
import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppViewLoad, AppViewPermission, TranscriptItem } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useTranslation } from '../i18n';
import { useApp } from '../store';
import type { PreparingTool } from '../store/chat';
import { safeExternalUrl } from '../safe-url';
import { ApprovalCard } from '../components/ApprovalCard';
import { revealInChat } from '../components/use-stick-to-bottom';
import { connectBridge, hostContext, sendCallState, type SentToView } from './bridge';
import { currentHostStyles } from './host-styles';
import { viewQuestion, type ViewQuestion } from './view-question';
import './apps.css';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;
type ReadyView = Extract<AppViewLoad, { kind: 'ready' }>;
/** The view's tool call: still being written by the model, or recorded. */
type ViewCall = ToolItem | PreparingTool;

/** What the slot shows, as the UI renders it. */
type ViewState =
  | { kind: 'loading' }
  | { kind: 'none' }
  | { kind: 'unavailable'; reason: Extract<AppViewLoad, { kind: 'unavailable' }>['reason'] }
  | { kind: 'consent'; view: ReadyView }
  | { kind: 'shown'; view: ReadyView; granted: AppViewPermission[] }
  /** Closed by the user (saved with the conversation); showing it again loads a new instance. */
  | { kind: 'closed' };

/** Calls in these states have (or had) a view; the rest never ran. */
const SHOWN_STATES = new Set<ToolItem['state']>(['running', 'ok', 'error', 'cancelled', 'interrupted']);
/** Bounds of an inline view's height, in CSS pixels. */
const MIN_HEIGHT = 60;
const MAX_HEIGHT = 640;
/** How long a view has to answer teardown before it is removed, in ms. */
const TEARDOWN_WAIT_MS = 500;

/**
 * The app view slot of one tool call: nothing when the tool declares no view. A slot that began
 * while the input streamed keeps its view while the call waits for approval (it is removed if
 * the call is refused, as a refused call has no view). A view the user closed (saved with the
 * conversation) shows only its Show app view button; main answers `closed` without reading it.
 */
export function AppViewSlot({ call: item }: { call: ViewCall }) {
  const { t } = useTranslation();
  const [state, setState] = useState<ViewState>({ kind: 'loading' });
  const [early] = useState(item.kind === 'preparing-tool');
  const eligible = item.kind === 'preparing-tool' || SHOWN_STATES.has(item.state) || (early && item.state === 'awaiting_approval');
  const conversationId = useApp((s) => s.conversationId);
  // A reopened conversation may show before its server is up again: load once it is ready.
  // Once a view is had, server status changes do not reload it.
  const serverReady = useApp((s) => s.servers[item.server]?.state.kind === 'ready');
  const loaded = useRef(false);
  // Bumped to load again when a view saved closed (so never loaded) is shown.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!eligible || loaded.current) return;
    let live = true;
    call('apps.view', { conversation_id: conversationId, run_id: item.run_id, call_id: item.call_id, server: item.server, tool: item.original_name }).then(
      (load) => {
        // Issued for a slot that is gone meanwhile: no frame will own it.
        if (!live) return void (load.kind === 'ready' && call('apps.releaseView', { view_instance: load.view_instance }).catch(() => undefined));
        if (load.kind === 'none' || load.kind === 'closed') loaded.current = true;
        if (load.kind === 'closed') return setState({ kind: 'closed' });
        if (load.kind !== 'ready') return setState(load);
        loaded.current = true;
        setState(load.permissions.length ? { kind: 'consent', view: load } : { kind: 'shown', view: load, granted: [] });
      },
      () => live && setState({ kind: 'unavailable', reason: 'read_failed' }),
    );
    return () => {
      live = false;
    };
  }, [eligible, conversationId, item.run_id, item.call_id, item.server, item.original_name, serverReady, attempt]);

  // A view waiting for the user's consent holds an instance no frame owns yet: it is released
  // here if the slot goes (or reloads) before the frame takes it over.
  const framed = useRef<string | null>(null);
  const waiting = state.kind === 'consent' ? state.view.view_instance : null;
  useEffect(() => {
    if (!waiting) return;
    return () => {
      if (framed.current !== waiting) void call('apps.releaseView', { view_instance: waiting }).catch(() => undefined);
    };
  }, [waiting]);
  const frame = (view: ReadyView, granted: AppViewPermission[]): void => {
    framed.current = view.view_instance;
    setState({ kind: 'shown', view, granted });
  };

  /**
   * Save the user's choice with the conversation, then show it. A failed save (the conversation
   * was deleted meanwhile, or the connection to main is gone) still changes what is shown here:
   * the choice then holds until the view is rebuilt.
   */
  const choose = (closed: boolean, next: () => void): void =>
    void call('apps.setViewClosed', { conversation_id: conversationId, run_id: item.run_id, call_id: item.call_id, closed }).then(
      () => next(),
      () => next(),
    );

  if (!eligible || state.kind === 'none' || state.kind === 'loading') return null;
  if (state.kind === 'unavailable')
    return (
      <div className="app-view-note muted small" data-testid="app-view-unavailable" data-reason={state.reason}>
        {t(`apps.unavailable_${state.reason}`)}
      </div>
    );
  if (state.kind === 'consent')
    return (
      <div className="app-view-consent" data-testid="app-view-consent">
        <span>{t('apps.permissionsAsk', { list: state.view.permissions.map((p) => t(`apps.perm_${p}`)).join(', ') })}</span>
        <button onClick={() => frame(state.view, state.view.permissions)}>{t('apps.permissionsAllow')}</button>
        <button className="secondary" onClick={() => frame(state.view, [])}>
          {t('apps.permissionsDeny')}
        </button>
      </div>
    );
  if (state.kind === 'closed') {
    // The closed view's instance was released: showing it again asks main for a new one.
    const reopen = (): void =>
      choose(false, () => {
        loaded.current = false;
        setState({ kind: 'loading' });
        setAttempt((n) => n + 1);
      });
    return (
      <button className="link app-view-reopen" data-testid="app-view-reopen" onClick={reopen}>
        {t('apps.reopen')}
      </button>
    );
  }
  return <AppFrame call={item} view={state.view} granted={state.granted} onClosed={() => choose(true, () => setState({ kind: 'closed' }))} />;
}

/** The sandbox frame of a shown view and its bridge. */
function AppFrame({ call: item, view, granted, onClosed }: { call: ViewCall; view: ReadyView; granted: AppViewPermission[]; onClosed: () => void }) {
  const { t, i18n } = useTranslation();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const modeButton = useRef<HTMLButtonElement>(null);
  const linkBar = useRef<HTMLDivElement>(null);
  const messageBar = useRef<HTMLDivElement>(null);
  const asking = useRef(false);
  const approvalBox = useRef<HTMLDivElement>(null);
  const bridgeRef = useRef<AppBridge | null>(null);
  const [height, setHeight] = useState(160);
  const [mode, setMode] = useState<'inline' | 'fullscreen'>('inline');
  // The view's open-link question: `late` once the view was already told "not opened" (./view-question.ts).
  const [link, setLink] = useState<{ url: string; late: boolean; answer: (open: boolean) => void } | null>(null);
  const linkQuestion = useRef<ViewQuestion<boolean> | null>(null);
  // A view's `ui/message` is sent as the user's only when the user agrees (a view could otherwise
  // speak for the user); one question at a time.
  const [message, setMessage] = useState<{ text: string; answer: (send: boolean) => void } | null>(null);
  const conversationId = useApp((s) => s.conversationId);
  // Approvals main holds for tool calls this view made (main/mcp/apps/service.ts `callTool`).
  const approvalOrder = useApp((s) => s.approvalOrder);
  const approvalMap = useApp((s) => s.approvals);
  const approvals = approvalOrder.map((id) => approvalMap[id]).filter((a) => a && a.run_id === 'app-view' && a.conversation_id === conversationId && a.call_id.startsWith(`app:${item.call_id}:`));

  // The call as it is now (its input grows, then its entry arrives), and what the view was sent of it.
  const latest = useRef(item);
  latest.current = item;
  const sent = useRef<SentToView>({ partialJson: null, input: false, outcome: false });
  const ready = useRef(false);

  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    let bridge: AppBridge | null = null;
    let gone = false;
    // The instance main issued for this showing: what the view asked of its server ends with it
    // (main/mcp/apps/view-instances.ts).
    const instance = view.view_instance;
    // A view shown again after Close starts over.
    sent.current = { partialJson: null, input: false, outcome: false };
    ready.current = false;
    void connectBridge({
      frame,
      view,
      granted,
      context: hostContext(view, item.call_id, frame.clientWidth || 600, i18n.language),
      onInitialized: (b) => {
        if (gone) return;
        ready.current = true;
        sendCallState(b, latest.current, sent.current);
      },
      version: '1',
      handlers: {
        sendMessage: (text) =>
          new Promise<boolean>((resolve) => {
            if (gone || asking.current) return resolve(false);
            asking.current = true;
            setMessage({
              text,
              answer: (send) => {
                asking.current = false;
                setMessage(null);
                if (!send) return resolve(false);
                void useApp.getState().send(text).then(resolve, () => resolve(false));
              },
            });
          }),
        openLink: (url) =>
          new Promise<boolean>((resolve) => {
            const safe = safeExternalUrl(url);
            if (!safe || gone) return resolve(false);
            // One question at a time: a newer one answers the older "not opened" (it would
            // otherwise wait unanswered until the view's request timed out).
            linkQuestion.current?.reply(false);
            // Answered in time for the view (not opened yet); the question stays for the user.
            const q: ViewQuestion<boolean> = viewQuestion(resolve, false, () => setLink((l) => (l && linkQuestion.current === q ? { ...l, late: true } : l)));
            linkQuestion.current = q;
            setLink({
              url,
              late: false,
              answer: (open) => {
                q.reply(open);
                if (linkQuestion.current === q) linkQuestion.current = null;
                setLink(null);
                if (open) window.open(url, '_blank', 'noopener,noreferrer');
              },
            });
          }),
        resize: (h) => setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(h)))),
        setDisplayMode: (m) => {
          setMode(m);
          return m;
        },
      },
    }).then(
      (b) => {
        if (gone) void b.close();
        else bridge = bridgeRef.current = b;
      },
      () => undefined,
    );
    return () => {
      gone = true;
      linkQuestion.current?.dispose();
      linkQuestion.current = null;
      // Its calls still under way are withdrawn: an approval card of a gone view would answer
      // nothing. After teardown (best effort when the whole chat unmounts), which the view may
      // still answer with requests of its own.
      const release = (): void => void call('apps.releaseView', { view_instance: instance }).catch(() => undefined);
      const b = bridge;
      bridgeRef.current = null;
      if (b)
        void b
          .teardownResource({}, { timeout: TEARDOWN_WAIT_MS })
          .catch(() => undefined)
          .finally(() => {
            void b.close();
            release();
          });
      else release();
    };
    // The bridge lives as long as the frame; later result changes are sent below.
  }, [view]);

  // The link question shows where the user is looking (a view's button may be far below it).
  // A block body: newer Chromium's scrollIntoView returns a Promise, which must not be the cleanup.
  useEffect(() => {
    if (link && linkBar.current) revealInChat(linkBar.current);
  }, [link]);
  useEffect(() => {
    if (message && messageBar.current) revealInChat(messageBar.current);
  }, [message]);

  // Likewise a card for the view's own tool call (asked after a click low in a tall view).
  const newestApproval = approvals.at(-1)?.id;
  useEffect(() => {
    if (newestApproval && approvalBox.current) revealInChat(approvalBox.current);
  }, [newestApproval]);

  // Host context changes the view is told about (ext-apps `ui/notifications/host-context-changed`):
  // display mode, theme and the style variables that follow it, container width.
  useEffect(() => {
    void bridgeRef.current?.sendHostContextChange({ displayMode: mode });
    if (mode !== 'fullscreen') return;
    // Focus stays in the window (on the button that leaves full screen), so Esc works at once.
    modeButton.current?.focus();
    // Esc in the window (not inside the view, whose keys stay its own) leaves full screen.
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setMode('inline');
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [mode]);
  useEffect(() => {
    const frame = frameRef.current;
    const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: light)') : null;
    const onTheme = (): void => void bridgeRef.current?.sendHostContextChange({ theme: media?.matches ? 'light' : 'dark', styles: currentHostStyles() });
    media?.addEventListener('change', onTheme);
    let lastWidth = 0;
    const resize = new ResizeObserver((entries) => {
      const width = Math.round(entries[0]?.contentRect.width ?? 0);
      if (!width || width === lastWidth) return;
      lastWidth = width;
      void bridgeRef.current?.sendHostContextChange({ containerDimensions: { width, maxHeight: MAX_HEIGHT } });
    });
    if (frame) resize.observe(frame);
    return () => {
      media?.removeEventListener('change', onTheme);
      resize.disconnect();
    };
  }, []);

  // What arrives after the view started: more of the input, the call's entry, its result.
  useEffect(() => {
    const b = bridgeRef.current;
    if (b && ready.current) sendCallState(b, item, sent.current);
  }, [item]);

  const close = (): void => {
    const b = bridgeRef.current;
    bridgeRef.current = null;
    if (!b) return onClosed();
    void b
      .teardownResource({}, { timeout: TEARDOWN_WAIT_MS })
      .catch(() => undefined)
      .finally(() => {
        void b.close();
        onClosed();
      });
  };

  const border = view.prefers_border !== false;
  const full = mode === 'fullscreen';
  return (
    <>
    {/* Full screen is modal: the app behind is dimmed and a click on it returns the view inline. */}
    {full && <div className="app-view-backdrop" data-testid="app-view-backdrop" aria-hidden="true" onClick={() => setMode('inline')} />}
    <div
      className={`app-view ${mode}${border ? ' bordered' : ''}`}
      data-testid="app-view"
      data-mode={mode}
      {...(full ? { role: 'dialog', 'aria-modal': true, 'aria-label': t('apps.label', { tool: view.tool.title ?? view.tool.name }) } : {})}
    >
      <div className="app-view-bar">
        <span className="muted small">{view.tool.title ?? view.tool.name}</span>
        {/* Where the view may send data: what it declared (its CSP), and the channel no page policy covers. */}
        <span className="muted small app-view-network" data-testid="app-view-network">
          {view.csp.connectDomains?.length ? t('apps.networkList', { list: view.csp.connectDomains.join(', ') }) : t('apps.networkNone')} {t('apps.webrtcNote')}
        </span>
        <span className="spacer" />
        <button ref={modeButton} className="link small" onClick={() => setMode(mode === 'inline' ? 'fullscreen' : 'inline')}>
          {mode === 'inline' ? t('apps.fullscreen') : t('apps.exitFullscreen')}
        </button>
        <button className="link small" onClick={close}>
          {t('apps.close')}
        </button>
      </div>
      {link && (
        <div className="app-view-consent" data-testid="app-view-link" ref={linkBar}>
          <span>{t('apps.openLinkAsk', { url: link.url.slice(0, 300) })}</span>
          {link.late && (
            <span className="muted small" data-testid="app-view-link-late">
              {t('apps.openLinkLate')}
            </span>
          )}
          <button onClick={() => link.answer(true)}>{t('apps.openLinkOpen')}</button>
          <button className="secondary" onClick={() => link.answer(false)}>
            {t('common.cancel')}
          </button>
        </div>
      )}
      {message && (
        <div className="app-view-consent" data-testid="app-view-message" ref={messageBar}>
          <span>{t('apps.sendMessageAsk', { server: item.server })}</span>
          <blockquote className="app-view-message-text" translate="no">
            {message.text.length > 2000 ? `${message.text.slice(0, 2000)}…` : message.text}
          </blockquote>
          <button onClick={() => message.answer(true)}>{t('apps.sendMessageSend')}</button>
          <button className="secondary" onClick={() => message.answer(false)}>
            {t('common.cancel')}
          </button>
        </div>
      )}
      {approvals.length > 0 && (
        <div ref={approvalBox}>
          {approvals.map((a) => a && <ApprovalCard key={a.id} approval={a} />)}
        </div>
      )}
      <iframe
        ref={frameRef}
        title={t('apps.label', { tool: view.tool.title ?? view.tool.name })}
        data-testid="app-view-frame"
        src={view.sandbox_url}
        sandbox="allow-scripts allow-same-origin allow-forms"
        allow={granted.map((p) => (p === 'clipboardWrite' ? 'clipboard-write' : p)).join('; ')}
        referrerPolicy="no-referrer"
        style={mode === 'inline' ? { height } : undefined}
      />
    </div>
    </>
  );
}
