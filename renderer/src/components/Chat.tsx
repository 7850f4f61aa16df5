import { memo, useEffect, useRef, useState } from 'react';
import type { TranscriptItem } from '../../../preload/contract/index.js';
import { useApp } from '../store';
import { SHOWN_AT_FIRST, refusalHolds, type PreparingTool } from '../store/chat';
import { activeProfile } from '../store/settings';
import { call } from '../api';
import { useTranslation } from '../i18n';
import { Composer } from './Composer';
import { ContextChips } from './ContextChips';
import { FirstRun, type GuideTarget } from './FirstRun';
import { LocalModelOffers, SetUpModel, useLocalModelOffers } from './LocalModelOffers';
import { Glyph, type IconName } from './icons';
import { FoldedText } from './FoldedText';
import { ErrorText } from './ErrorText';
import { ToolPicker } from './ToolPicker';
import { PreparingCard, ToolCard } from './ToolCard';
import { NoticeText } from './RunNote';
import { AppViewSlot } from '../apps/AppView';
import { EntryBoundary, entryRawText } from './EntryBoundary';
import { useStickToBottom } from './use-stick-to-bottom';
import { useTranscriptRange } from './use-transcript-range';

/** An icon button of a message: its name is the accessible name and the tooltip. */
function ActionButton({ icon, label, onClick, disabled, onBlur }: { icon: IconName; label: string; onClick: () => void; disabled?: boolean; onBlur?: () => void }) {
  return (
    <button className="msg-action" aria-label={label} title={label} onClick={onClick} disabled={disabled} onBlur={onBlur}>
      <Glyph name={icon} />
    </button>
  );
}

/** Copy text to the clipboard, and say so for a moment (the name and icon change). */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  return (
    <ActionButton
      icon={done === 'copied' ? 'check' : done === 'failed' ? 'alert' : 'copy'}
      label={done === 'copied' ? t('chat.copied') : done === 'failed' ? t('chat.copyFailed') : t('chat.copy')}
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => setDone('copied'),
          () => setDone('failed'),
        )
      }
      onBlur={() => setDone(null)}
    />
  );
}

/**
 * The i18n key of the note under an answer that did not finish normally. A stopped answer has
 * none: the run's own "Stopped." notice follows it, and saying it twice reads like two events.
 */
const ANSWER_NOTE: Partial<Record<Extract<TranscriptItem, { kind: 'assistant' }>['state'], 'chat.answerFailed' | 'chat.answerInterrupted'>> = {
  failed: 'chat.answerFailed',
  interrupted: 'chat.answerInterrupted',
};

/**
 * One user message, with Copy and (for the last one) Edit. Its edit box takes the keys the
 * composer does: Enter sends the edit (not while an input method is composing), Shift+Enter makes a
 * new line; Escape cancels the edit.
 */
function UserMessage({ item, editable, running }: { item: Extract<TranscriptItem, { kind: 'user' }>; editable: boolean; running: boolean }) {
  const { t } = useTranslation();
  const editResend = useApp((s) => s.editResend);
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(item.text);
  // Between the send and main's answer the edit is not sent again (a held Enter repeats).
  const [sending, setSending] = useState(false);
  const canSend = text.trim().length > 0 && !running && !sending;
  const send = (): void => {
    setSending(true);
    void editResend(item.id, text.trim()).then((ok) => {
      setSending(false);
      if (ok) setEditing(false);
    });
  };
  if (editing)
    return (
      <div className="msg user editing" data-testid="msg-user-edit">
        <textarea
          aria-label={t('chat.editMessage')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.nativeEvent.isComposing) return;
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              if (canSend) send();
            } else if (e.key === 'Escape') {
              // Esc here cancels the edit only; it does not also stop a running answer (the window's Esc).
              e.stopPropagation();
              setEditing(false);
            }
          }}
          autoFocus
        />
        <div className="row">
          <button className="primary" disabled={!canSend} onClick={send}>
            {t('chat.saveAndSend')}
          </button>
          <button onClick={() => setEditing(false)}>{t('common.cancel')}</button>
        </div>
      </div>
    );
  return (
    <div className="msg-wrap user">
      {item.context && item.context.length > 0 && <ContextChips context={item.context} />}
      {item.text && (
        <div className="msg user" data-testid="msg-user">
          <FoldedText text={item.text} mode="text" />
        </div>
      )}
      <div className="msg-actions">
        <CopyButton text={item.text} />
        {editable && (
          <ActionButton
            icon="edit"
            label={t('common.edit')}
            disabled={running}
            onClick={() => {
              setText(item.text);
              setEditing(true);
            }}
          />
        )}
      </div>
    </div>
  );
}

/** The composer's model picker: the conversation's profile, or the default one. */
function ProfilePicker() {
  const { t } = useTranslation();
  const profiles = useApp((s) => s.profiles);
  const loadProfiles = useApp((s) => s.loadProfiles);
  const pick = useApp((s) => s.pickProfile);
  const current = useApp((s) => s.conversations.find((c) => c.id === s.conversationId)?.profile_id ?? (s.conversations.some((c) => c.id === s.conversationId) ? null : s.draftProfileId));
  // A choice only when there is one to make.
  if (profiles.length < 2) return null;
  const def = profiles.find((p) => p.is_default);
  return (
    <select
      aria-label={t('chat.profile')}
      className="profile-picker"
      value={current ?? ''}
      onFocus={() => void loadProfiles().catch(() => undefined)}
      onChange={(e) => void pick(e.target.value || null)}
    >
      <option value="">{t('chat.profileDefaultNamed', { name: def ? def.name : '—' })}</option>
      {profiles
        .filter((p) => !p.is_default)
        .map((p) => (
          <option key={p.id} value={p.id}>
            {t('chat.profileOption', { name: p.name, model: p.model || t('chat.noModelName') })}
          </option>
        ))}
    </select>
  );
}


/**
 * The React key of a transcript row. A tool call's row is keyed by its call, so the provisional
 * row of a call whose input streams and the call's own entry are one element: its MCP App view
 * stays mounted (not reloaded) when the entry arrives (docs/ARCHITECTURE.md "MCP Apps").
 */
function rowKey(row: TranscriptItem | PreparingTool): string {
  return row.kind === 'tool' || row.kind === 'preparing-tool' ? `tool:${row.run_id}:${row.call_id}` : row.id;
}

/**
 * One transcript entry. Memoized: while an answer streams, only that entry renders again. Each
 * message, tool card and app view is contained (./EntryBoundary.tsx): one that cannot be
 * displayed shows a notice with its raw text, and the rest of the window goes on.
 */
const Item = memo(function Item({ item: it, editable, running, hit, regen }: { item: TranscriptItem | PreparingTool; editable: boolean; running: boolean; hit: boolean; regen: boolean }) {
  const { t } = useTranslation();
  const regenerate = useApp((s) => s.regenerate);
  const raw = () => entryRawText(it);
  const label = it.kind === 'preparing-tool' ? it.call_id : it.id;
  let body;
  if (it.kind === 'user') body = <UserMessage item={it} editable={editable} running={running} />;
  else if (it.kind === 'assistant')
    body = (
      <div className="msg-wrap assistant">
        <div className={`msg assistant ${it.state}`} data-testid="msg-assistant">
          <FoldedText text={it.text} mode="markdown" streaming={it.state === 'streaming'} />
        </div>
        <div className="msg-actions">
          <CopyButton text={it.text} />
          {regen && <ActionButton icon="regenerate" label={t('chat.regenerate')} onClick={() => void regenerate()} />}
          {ANSWER_NOTE[it.state] && <span className="muted small">{t(ANSWER_NOTE[it.state]!)}</span>}
        </div>
      </div>
    );
  // The card changes from the provisional one to the call's own; the view slot after it stays.
  else if (it.kind === 'tool' || it.kind === 'preparing-tool')
    body = (
      <>
        <EntryBoundary part="tool" resetKey={it} raw={raw} label={label}>
          {it.kind === 'tool' ? <ToolCard call={it} /> : <PreparingCard call={it} />}
        </EntryBoundary>
        <EntryBoundary part="view" resetKey={it} raw={raw} label={label}>
          <AppViewSlot call={it} />
        </EntryBoundary>
      </>
    );
  else
    body = (
      <div className={`notice ${it.tone}`} data-testid="chat-notice">
        <NoticeText item={it} />
      </div>
    );
  return (
    <div className={`item${hit ? ' search-hit-item' : ''}`} data-item-id={it.kind === 'preparing-tool' ? undefined : it.id}>
      {it.kind === 'tool' || it.kind === 'preparing-tool' ? (
        body
      ) : (
        <EntryBoundary part="entry" resetKey={it} raw={raw} label={label}>
          {body}
        </EntryBoundary>
      )}
    </div>
  );
});

/** The empty chat when the guide is off: what to do next, as a sentence and an action. */
function EmptyChat({ onOpenSettings }: { onOpenSettings: (target: GuideTarget) => void }) {
  const { t } = useTranslation();
  const model = useApp((s) => s.model);
  const local = useLocalModelOffers();
  if (model?.configured)
    return (
      <div className="empty" data-testid="chat-empty">
        <p>{t('chat.emptyReady')}</p>
      </div>
    );
  return (
    <div className="empty" data-testid="chat-empty">
      <SetUpModel offers={local.offers.length} onOpenModel={() => onOpenSettings('model')} />
      <LocalModelOffers found={local} onAdded={() => void useApp.getState().loadSettings()} />
    </div>
  );
}

/** Rows with their keys; a key already taken (a provider that repeats call ids) falls back to the entry id. */
function uniqueKeys(rows: Array<TranscriptItem | PreparingTool>): Array<[TranscriptItem | PreparingTool, string]> {
  const taken = new Set<string>();
  return rows.map((row) => {
    let key = rowKey(row);
    if (taken.has(key)) key = row.kind === 'preparing-tool' ? `${key}:preparing` : row.id;
    taken.add(key);
    return [row, key];
  });
}

/** The chat: the open conversation's transcript, message actions, export, and the composer. */
export function ChatView({ onOpenSettings, composerRef }: { onOpenSettings: (target: GuideTarget) => void; composerRef: React.RefObject<HTMLTextAreaElement | null> }) {
  const { t } = useTranslation();
  const items = useApp((s) => s.items);
  const preparingTools = useApp((s) => s.preparingTools);
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
  const regenerate = useApp((s) => s.regenerate);
  // The first-run guide, while it is on and nothing was said yet (store/onboarding.ts).
  const guide = useApp((s) => s.firstRun.kind === 'shown' && s.conversations.length === 0);
  const running = summary?.running ?? false;
  // The profile this conversation uses: its own, the draft's pick, or the default.
  const active = useApp(activeProfile);
  const [exportNote, setExportNote] = useState<{ tone: 'info'; text: string } | { tone: 'error'; error: unknown } | null>(null);
  const end = useRef<HTMLDivElement>(null);
  const transcript = useRef<HTMLDivElement>(null);
  // The shown range of a long conversation, which slides one step at a time (./use-transcript-range.ts).
  const { from, to, showEarlier, showLater, onScroll: onRangeScroll } = useTranscriptRange(transcript);
  // Follow the newest entry at most once per frame: scrolling forces a layout of the transcript, and
  // a streaming answer changes `items` hundreds of times a second (bench/streaming.ts).
  // A block body: an effect must return nothing or a cleanup function, and newer Chromium makes
  // scrollIntoView() return a Promise, which React would call as a cleanup on unmount (crash).
  const scrollFrame = useRef<number | null>(null);
  // Growth that is not a new entry (an app view sizing itself) keeps the bottom in view too.
  // An empty chat (the first-run guide, the empty state) is read from its top.
  const onStickScroll = useStickToBottom(transcript, !!focusItemId || items.length === 0);
  // Scrolling near either end of the shown entries shows more of them: only a move of the user's
  // towards that end, never at open.
  const onTranscriptScroll = (): void => {
    onStickScroll();
    onRangeScroll();
  };
  useEffect(() => {
    if (focusItemId || scrollFrame.current !== null) return;
    if (items.length === 0) {
      if (transcript.current) transcript.current.scrollTop = 0;
      return;
    }
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
        setExportNote({ tone: 'info', text: t('chat.downloaded', { file: r.filename }) });
      } else if (r.kind === 'saved') setExportNote({ tone: 'info', text: t('chat.savedTo', { path: r.saved_to }) });
    } catch (e) {
      setExportNote({ tone: 'error', error: e });
    }
  };

  const preparing = preparingTools.filter((p) => !items.some((it) => it.kind === 'tool' && it.run_id === p.run_id && it.call_id === p.call_id));
  const lastUser = items.reduce((at, it, i) => (it.kind === 'user' ? i : at), -1);
  const hasAnswer = lastUser >= 0 && lastUser < items.length - 1;
  // Regenerate sits with the last answer's own actions when the run ended on it; else on a row of its own.
  const regenInline = hasAnswer && !running && items[items.length - 1]?.kind === 'assistant';

  return (
    <div className="chat">
      <div className="chat-toolbar">
        <span className="chat-title" data-testid="chat-title" title={summary?.title}>
          {summary?.title ?? t('chat.newChat')}
        </span>
        <span className="muted small">
          {active?.configured ? t('chat.model', { model: active.model }) : model?.configured ? t('chat.model', { model: model.model }) : t('chat.noModel')} · {t('chat.toolsAvailable', { count: tools })}
        </span>
        <span className="spacer" />
        {summary && (
          <button className="link" data-testid="open-tasks" onClick={() => void useApp.getState().openTasks({ kind: 'conversation', conversation_id: summary.id })}>
            {t('tasks.open')}
          </button>
        )}
        {summary && (
          <span className="row export-buttons">
            {/* Narrow windows show the short label; the name stays the whole one. */}
            <button aria-label={t('chat.exportMarkdown')} title={t('chat.exportMarkdown')} onClick={() => void doExport('markdown')}>
              <span className="label-long">{t('chat.exportMarkdown')}</span>
              <span className="label-short" aria-hidden="true">{t('chat.exportMarkdownShort')}</span>
            </button>
            <button aria-label={t('chat.exportJson')} title={t('chat.exportJson')} onClick={() => void doExport('json')}>
              <span className="label-long">{t('chat.exportJson')}</span>
              <span className="label-short" aria-hidden="true">{t('chat.exportJsonShort')}</span>
            </button>
          </span>
        )}
      </div>
      {exportNote && (
        <div className={`notice ${exportNote.tone} export-note`} role="status" data-testid="export-note">
          {exportNote.tone === 'error' ? <ErrorText error={exportNote.error} /> : exportNote.text}
        </div>
      )}
      <div className="transcript" data-testid="transcript" ref={transcript} aria-busy={loading} onScroll={onTranscriptScroll}>
        {items.length === 0 && !loading && (guide ? <FirstRun onOpen={onOpenSettings} /> : <EmptyChat onOpenSettings={onOpenSettings} />)}
        {from > 0 && (
          <button className="link earlier" onClick={showEarlier}>
            {t('chat.showEarlier', { count: Math.min(SHOWN_AT_FIRST, from), hidden: from })}
          </button>
        )}
        {/* One list: a provisional row comes last, where its call's entry will be appended. */}
        {uniqueKeys(to < items.length ? items.slice(from, to) : [...items.slice(from), ...preparing]).map(([it, key], j) => (
          <Item key={key} item={it} editable={from + j === lastUser} running={running} hit={it.kind !== 'preparing-tool' && it.id === focusItemId} regen={regenInline && from + j === items.length - 1} />
        ))}
        {to < items.length && (
          <button className="link later" onClick={showLater}>
            {t('chat.showLater', { count: Math.min(SHOWN_AT_FIRST, items.length - to), hidden: items.length - to })}
          </button>
        )}
        {hasAnswer && !running && !regenInline && to === items.length && (
          <div className="item regen">
            <ActionButton icon="regenerate" label={t('chat.regenerate')} onClick={() => void regenerate()} />
          </div>
        )}
        {localNotices.filter((n) => refusalHolds(n, !!(active?.configured || model?.configured))).map((n) => (
          <div key={n.id} className="notice error" data-testid="chat-notice" role="alert">
            <ErrorText error={n.error} />{' '}
            <button className="link" onClick={() => dismissLocal(n.id)}>
              {t('app.dismiss')}
            </button>
          </div>
        ))}
        <div ref={end} />
      </div>
      <div className="composer">
        <Composer composerRef={composerRef} running={running} />
        {/* One toolbar row under the message box: the model and tools pickers, then Attach and Send. */}
        <div className="composer-pickers">
          <ProfilePicker />
          <ToolPicker />
        </div>
      </div>
    </div>
  );
}
