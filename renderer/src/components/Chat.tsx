import { memo, useEffect, useRef, useState } from 'react';
import type { TranscriptItem } from '../../../preload/contract/index.js';
import { useApp } from '../store';
import { SHOWN_AT_FIRST } from '../store/chat';
import { call } from '../api';
import { ApprovalCard } from './ApprovalCard';
import { LocalModelOffers } from './LocalModelOffers';
import { Markdown } from './Markdown';
import { ToolPicker } from './ToolPicker';
import { ToolProgressBar, ToolResult } from './ToolResult';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

const STATE_LABEL: Record<ToolItem['state'], string> = {
  awaiting_approval: 'waiting for approval',
  running: 'running…',
  ok: 'ok',
  error: 'error',
  denied: 'denied',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

const VIA_LABEL: Record<string, string> = {
  always_allow: 'always allowed',
  conversation_grant: 'allowed in this conversation',
  mode_never_ask: 'allowed: approval is off',
  read_only_hint: 'allowed: declared read-only',
};
const DECISION_LABEL: Record<string, string> = { allow_once: 'you allowed it once', allow_conversation: 'you allowed it in this conversation', always_allow: 'you always allow it', deny: 'you denied it' };

/** A tool call: namespaced name, arguments, result or error, duration. */
export function ToolCard({ call: item }: { call: ToolItem }) {
  const [open, setOpen] = useState(true);
  const cancelTool = useApp((s) => s.cancelTool);
  // The approval main is holding for this very call, if any.
  const approval = useApp((s) => {
    for (const id of s.approvalOrder) {
      const a = s.approvals[id];
      if (a && a.run_id === item.run_id && a.call_id === item.call_id) return a;
    }
    return null;
  });
  const pending = item.state === 'running' || item.state === 'awaiting_approval';
  const failed = !pending && item.state !== 'ok';
  const how = item.permission ? (item.permission.decision ? DECISION_LABEL[item.permission.decision] : VIA_LABEL[item.permission.via]) : null;
  return (
    <div className={`tool-card ${failed ? 'error' : item.state}`} data-testid="tool-card" data-state={item.state}>
      <button className="tool-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className={`tool-icon ${failed ? 'error' : item.state}`} aria-label={item.state} />
        <span className="tool-name" data-testid="tool-name">
          {item.tool}
        </span>
        <span className="muted">{item.server}</span>
        <span className="spacer" />
        {how && (
          <span className="muted small" data-testid="tool-permission">
            {how} ·
          </span>
        )}
        {!pending && (
          <span className="muted" data-testid="tool-state">
            {STATE_LABEL[item.state]} ·
          </span>
        )}
        <span className="muted" data-testid="tool-duration">
          {item.duration_ms === null ? STATE_LABEL[item.state] : `${item.duration_ms} ms`}
        </span>
      </button>
      {approval && <ApprovalCard approval={approval} />}
      {item.state === 'running' && (
        <button className="link cancel-call" onClick={() => void cancelTool(item.call_id)}>
          Cancel this call
        </button>
      )}
      {item.state === 'running' && item.progress && <ToolProgressBar progress={item.progress} />}
      {open && !approval && (
        <div className="tool-body">
          <div className="label">Arguments</div>
          <pre className="tool-args" data-testid="tool-args">
            {JSON.stringify(item.args, null, 2)}
          </pre>
          {!pending && (
            <>
              <div className="label">{failed ? 'Error' : 'Result'}</div>
              <div data-testid="tool-result">
                {failed && item.content.length === 0 ? (
                  <pre className="tool-text error-text">{item.state === 'interrupted' && !item.error ? 'The app stopped before this call returned. It may or may not have taken effect.' : item.error}</pre>
                ) : (
                  <ToolResult content={item.content} progress={null} />
                )}
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** Copy text to the clipboard, and say so for a moment. */
function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  return (
    <button
      className="msg-action"
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => setDone('copied'),
          () => setDone('failed'),
        )
      }
      onBlur={() => setDone(null)}
    >
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed' : label}
    </button>
  );
}

const ANSWER_NOTE: Partial<Record<Extract<TranscriptItem, { kind: 'assistant' }>['state'], string>> = {
  stopped: 'stopped',
  failed: 'failed',
  interrupted: 'interrupted: the app stopped while this was being written',
};

/** One user message, with Copy and (for the last one) Edit. */
function UserMessage({ item, editable, running }: { item: Extract<TranscriptItem, { kind: 'user' }>; editable: boolean; running: boolean }) {
  const editResend = useApp((s) => s.editResend);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(item.text);
  if (editing)
    return (
      <div className="msg user editing" data-testid="msg-user-edit">
        <textarea aria-label="Edit message" value={text} onChange={(e) => setText(e.target.value)} autoFocus />
        <div className="row">
          <button
            className="primary"
            disabled={!text.trim() || running}
            onClick={() => void editResend(item.id, text.trim()).then((ok) => ok && setEditing(false))}
          >
            Save and send
          </button>
          <button onClick={() => setEditing(false)}>Cancel</button>
        </div>
      </div>
    );
  return (
    <div className="msg-wrap user">
      <div className="msg user" data-testid="msg-user">
        {item.text}
      </div>
      <div className="msg-actions">
        <CopyButton text={item.text} />
        {editable && (
          <button
            className="msg-action"
            disabled={running}
            onClick={() => {
              setText(item.text);
              setEditing(true);
            }}
          >
            Edit
          </button>
        )}
      </div>
    </div>
  );
}

/** The composer's model picker: the conversation's profile, or the default one. */
function ProfilePicker() {
  const profiles = useApp((s) => s.profiles);
  const loadProfiles = useApp((s) => s.loadProfiles);
  const pick = useApp((s) => s.pickProfile);
  const current = useApp((s) => s.conversations.find((c) => c.id === s.conversationId)?.profile_id ?? (s.conversations.some((c) => c.id === s.conversationId) ? null : s.draftProfileId));
  // A choice only when there is one to make.
  if (profiles.length < 2) return null;
  const def = profiles.find((p) => p.is_default);
  return (
    <select
      aria-label="Model profile"
      className="profile-picker"
      value={current ?? ''}
      onFocus={() => void loadProfiles().catch(() => undefined)}
      onChange={(e) => void pick(e.target.value || null)}
    >
      <option value="">Default ({def ? def.name : 'none'})</option>
      {profiles
        .filter((p) => !p.is_default)
        .map((p) => (
          <option key={p.id} value={p.id}>
            {p.name} ({p.model || 'no model'})
          </option>
        ))}
    </select>
  );
}


/** One transcript entry. Memoized: while an answer streams, only that entry renders again. */
const Item = memo(function Item({ item: it, editable, running, hit }: { item: TranscriptItem; editable: boolean; running: boolean; hit: boolean }) {
  let body;
  if (it.kind === 'user') body = <UserMessage item={it} editable={editable} running={running} />;
  else if (it.kind === 'assistant')
    body = (
      <div className="msg-wrap assistant">
        <div className={`msg assistant ${it.state}`} data-testid="msg-assistant">
          <Markdown text={it.text} streaming={it.state === 'streaming'} />
        </div>
        <div className="msg-actions">
          {ANSWER_NOTE[it.state] && <span className="muted small">{ANSWER_NOTE[it.state]}</span>}
          <CopyButton text={it.text} />
        </div>
      </div>
    );
  else if (it.kind === 'tool') body = <ToolCard call={it} />;
  else
    body = (
      <div className={`notice ${it.tone}`} data-testid="chat-notice">
        {it.text}
      </div>
    );
  return (
    <div className={`item${hit ? ' search-hit-item' : ''}`} data-item-id={it.id}>
      {body}
    </div>
  );
});

/** The chat: the open conversation's transcript, message actions, export, and the composer. */
export function ChatView({ onOpenSettings, composerRef }: { onOpenSettings: () => void; composerRef: React.RefObject<HTMLTextAreaElement | null> }) {
  const items = useApp((s) => s.items);
  const conversationId = useApp((s) => s.conversationId);
  const summary = useApp((s) => s.conversations.find((c) => c.id === s.conversationId) ?? null);
  const loading = useApp((s) => s.loading);
  const focusItemId = useApp((s) => s.focusItemId);
  const localNotices = useApp((s) => s.localNotices);
  const dismissLocal = useApp((s) => s.dismissLocalNotice);
  const model = useApp((s) => s.model);
  const tools = useApp((s) => {
    const conv = s.conversations.find((c) => c.id === s.conversationId);
    const picked = conv ? conv.tool_servers : s.draftToolServers;
    return s.serverOrder.reduce((n, k) => n + (picked === null || picked.includes(k) ? (s.servers[k]?.tool_count ?? 0) : 0), 0);
  });
  const send = useApp((s) => s.send);
  const stop = useApp((s) => s.stop);
  const regenerate = useApp((s) => s.regenerate);
  const running = summary?.running ?? false;
  // The profile this conversation uses: its own, the draft's pick, or the default.
  const active = useApp((s) => {
    const id = summary ? summary.profile_id : s.draftProfileId;
    return s.profiles.find((p) => (id ? p.id === id : p.is_default)) ?? null;
  });
  const [text, setText] = useState('');
  const [exportNote, setExportNote] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const end = useRef<HTMLDivElement>(null);
  const transcript = useRef<HTMLDivElement>(null);
  // The first entry shown (set by the store when a conversation opens: the newest entries, or a
  // little before a search hit), so a long conversation never renders whole.
  const from = useApp((s) => Math.min(s.firstShown, s.items.length));
  const showEarlier = useApp((s) => s.showEarlier);
  // Follow the newest entry at most once per frame: scrolling forces a layout of the transcript, and
  // a streaming answer changes `items` hundreds of times a second (bench/streaming.ts).
  // A block body: an effect must return nothing or a cleanup function, and newer Chromium makes
  // scrollIntoView() return a Promise, which React would call as a cleanup on unmount (crash).
  const scrollFrame = useRef<number | null>(null);
  useEffect(() => {
    if (focusItemId || scrollFrame.current !== null) return;
    scrollFrame.current = requestAnimationFrame(() => {
      scrollFrame.current = null;
      end.current?.scrollIntoView({ block: 'end' });
    });
  }, [items, focusItemId, localNotices]);
  useEffect(
    () => () => {
      if (scrollFrame.current !== null) cancelAnimationFrame(scrollFrame.current);
    },
    [],
  );
  useEffect(() => {
    if (!focusItemId || loading) return;
    const el = transcript.current?.querySelector(`[data-item-id="${CSS.escape(focusItemId)}"]`);
    el?.scrollIntoView({ block: 'center' });
  }, [focusItemId, loading]);
  useEffect(() => setExportNote(null), [conversationId]);

  const submit = () => {
    const t = text.trim();
    // While it answers, main refuses a second message and says why (shown as a notice).
    if (!t) return;
    void send(t).then((ok) => ok && setText((cur) => (cur.trim() === t ? '' : cur)));
  };

  const doExport = async (format: 'markdown' | 'json') => {
    try {
      const r = await call('conversations.export', { id: conversationId, format });
      if (r.kind === 'content') {
        const url = URL.createObjectURL(new Blob([r.content], { type: r.mime }));
        const a = document.createElement('a');
        a.href = url;
        a.download = r.filename;
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        setExportNote({ tone: 'info', text: `Downloaded ${r.filename}.` });
      } else if (r.kind === 'saved') setExportNote({ tone: 'info', text: `Saved to ${r.saved_to}.` });
    } catch (e) {
      setExportNote({ tone: 'error', text: (e as Error).message });
    }
  };

  const lastUser = items.reduce((at, it, i) => (it.kind === 'user' ? i : at), -1);
  const hasAnswer = lastUser >= 0 && lastUser < items.length - 1;

  return (
    <div className="chat">
      <div className="chat-toolbar">
        <span className="chat-title" data-testid="chat-title" title={summary?.title}>
          {summary?.title ?? 'New chat'}
        </span>
        <span className="muted small">
          {active?.configured ? `Model: ${active.model}` : model?.configured ? `Model: ${model.model}` : 'No model configured'} · {tools} tools available
        </span>
        <span className="spacer" />
        {summary && (
          <span className="row export-buttons">
            <button onClick={() => void doExport('markdown')}>Export Markdown</button>
            <button onClick={() => void doExport('json')}>Export JSON</button>
          </span>
        )}
      </div>
      {exportNote && (
        <div className={`notice ${exportNote.tone} export-note`} role="status" data-testid="export-note">
          {exportNote.text}
        </div>
      )}
      <div className="transcript" data-testid="transcript" ref={transcript} aria-busy={loading}>
        {items.length === 0 && !loading && (
          <div className="empty">
            {model?.configured ? (
              <p>Ask anything. The model can use the tools of your ready MCP servers.</p>
            ) : (
              <>
                <p>
                  Set up a model first in <button className="link" onClick={onOpenSettings}>Settings → Model</button>.
                </p>
                <LocalModelOffers onAdded={() => void useApp.getState().loadSettings()} />
              </>
            )}
          </div>
        )}
        {from > 0 && (
          <button className="link earlier" onClick={showEarlier}>
            Show {Math.min(SHOWN_AT_FIRST, from)} earlier entries ({from} not shown)
          </button>
        )}
        {items.slice(from).map((it, j) => (
          <Item key={it.id} item={it} editable={from + j === lastUser} running={running} hit={it.id === focusItemId} />
        ))}
        {hasAnswer && !running && (
          <div className="item regen">
            <button className="msg-action" onClick={() => void regenerate()}>
              Regenerate answer
            </button>
          </div>
        )}
        {localNotices.map((n) => (
          <div key={n.id} className="notice error" data-testid="chat-notice" role="alert">
            {n.text}{' '}
            <button className="link" onClick={() => dismissLocal(n.id)}>
              Dismiss
            </button>
          </div>
        ))}
        <div ref={end} />
      </div>
      <div className="composer">
        <div className="composer-pickers">
          <ProfilePicker />
          <ToolPicker />
        </div>
        <textarea
          ref={composerRef}
          aria-label="Message"
          placeholder="Message the model…  (Enter to send, Shift+Enter for a new line, Esc to stop)"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {running ? (
          <button className="danger" onClick={() => void stop()} title="Stop (Esc)">
            Stop
          </button>
        ) : (
          <button className="primary" onClick={submit} disabled={!text.trim()}>
            Send
          </button>
        )}
      </div>
    </div>
  );
}
