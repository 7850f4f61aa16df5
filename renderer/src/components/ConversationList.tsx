import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConversationSummary, SearchHit, SnippetSegment } from '../../../preload/contract/index.js';
import { useApp } from '../store';
import { titleMatches } from '../title-search';
import { formatDate, t as translate, useTranslation } from '../i18n';
import { useWindowedList } from './use-windowed-list';
import { ErrorText } from './ErrorText';

/** "3 min ago", "yesterday", or a date (Intl, in the current language). */
function when(ts: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ts) / 1000));
  if (s < 60) return translate('time.justNow');
  if (s < 3600) return translate('time.minAgo', { n: Math.floor(s / 60) });
  if (s < 86_400) return translate('time.hAgo', { n: Math.floor(s / 3600) });
  if (s < 2 * 86_400) return translate('time.yesterday');
  return formatDate(ts);
}

/**
 * A search snippet: the pieces main sends, the ones the search engine matched in `<mark>`. Each
 * piece is rendered as text — nothing in the data is parsed as markup or as a highlight.
 */
function Snippet({ segments }: { segments: SnippetSegment[] }) {
  return (
    <>
      {segments.map((s, i) => (s.hit ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
    </>
  );
}

function Row({ c, active }: { c: ConversationSummary; active: boolean }) {
  const { t } = useTranslation();
  const open = useApp((s) => s.openConversation);
  const rename = useApp((s) => s.renameConversation);
  const remove = useApp((s) => s.removeConversation);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [title, setTitle] = useState(c.title);
  const [error, setError] = useState<unknown>(null);
  const save = async () => {
    try {
      await rename(c.id, title);
      setEditing(false);
      setError(null);
    } catch (e) {
      setError(e);
    }
  };
  if (editing)
    return (
      <li className="conv-row editing" data-row>
        <input
          aria-label={t('sidebar.titleLabel')}
          autoFocus
          value={title}
          maxLength={200}
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void save();
            if (e.key === 'Escape') setEditing(false);
          }}
        />
        <div className="row">
          <button onClick={() => void save()}>{t('common.save')}</button>
          <button onClick={() => setEditing(false)}>{t('common.cancel')}</button>
        </div>
        {error !== null && (
          <div className="field-error" data-testid="conversation-error">
            <ErrorText error={error} />
          </div>
        )}
      </li>
    );
  return (
    <li className={`conv-row${active ? ' active' : ''}`} data-testid="conversation" data-row>
      <button className="conv-open" onClick={() => void open(c.id)} aria-current={active ? 'true' : undefined} title={c.title}>
        <span className="conv-title">{c.title}</span>
        <span className="conv-meta muted small">
          {c.running && <span className="tool-icon running" aria-label={t('sidebar.answering')} />} {when(c.updated_at)} · {t('sidebar.messages', { count: c.message_count })}
        </span>
      </button>
      {confirming ? (
        <div className="conv-confirm" role="group" aria-label={t('sidebar.confirmDelete')}>
          <span className="small">{t('sidebar.deleteQuestion')}</span>
          <button className="danger" onClick={() => void remove(c.id).catch((e: unknown) => setError(e))}>
            {t('common.delete')}
          </button>
          <button onClick={() => setConfirming(false)}>{t('sidebar.keep')}</button>
        </div>
      ) : (
        <div className="conv-actions">
          <button
            className="icon"
            aria-label={t('sidebar.renameLabel', { title: c.title })}
            title={t('sidebar.rename')}
            onClick={() => {
              setTitle(c.title);
              setEditing(true);
            }}
          >
            ✎
          </button>
          <button className="icon" aria-label={t('sidebar.deleteLabel', { title: c.title })} title={t('common.delete')} onClick={() => setConfirming(true)}>
            ✕
          </button>
        </div>
      )}
      {error !== null && (
        <div className="field-error" data-testid="conversation-error">
          <ErrorText error={error} />
        </div>
      )}
    </li>
  );
}

/** One search hit: its conversation's title, whose words and when, and the words around the match. */
function Hit({ hit }: { hit: SearchHit }) {
  const { t } = useTranslation();
  const open = useApp((s) => s.openConversation);
  return (
    <li className="conv-row" data-testid="search-hit">
      <button className="conv-open" onClick={() => void open(hit.conversation_id, hit.item_id)} title={`${hit.title}\n${hit.snippet.map((s) => s.text).join('')}`}>
        <span className="conv-title">{hit.title}</span>
        <span className="conv-snippet small">
          {/* Whose words and when, so two hits of one conversation tell apart. */}
          <span className="muted" data-testid="search-hit-who">
            {t(`sidebar.hitKind.${hit.kind}`)} · {when(hit.ts)} ·{' '}
          </span>
          <span className="conv-snippet-text">
            <Snippet segments={hit.snippet} />
          </span>
        </span>
      </button>
    </li>
  );
}

/** A conversation found by its title: the title with the first word of the query marked. */
function TitleHit({ conversation: c, query }: { conversation: ConversationSummary; query: string }) {
  const { t } = useTranslation();
  const open = useApp((s) => s.openConversation);
  const word = query.trim().split(/\s+/)[0] ?? '';
  const at = word ? c.title.toLocaleLowerCase().indexOf(word.toLocaleLowerCase()) : -1;
  return (
    <li className="conv-row" data-testid="title-hit">
      <button className="conv-open" onClick={() => void open(c.id)} title={c.title}>
        <span className="conv-title">
          {at < 0 ? (
            c.title
          ) : (
            <>
              {c.title.slice(0, at)}
              <mark>{c.title.slice(at, at + word.length)}</mark>
              {c.title.slice(at + word.length)}
            </>
          )}
        </span>
        <span className="conv-snippet small muted">
          {t('sidebar.titleHit')} · {when(c.updated_at)}
        </span>
      </button>
    </li>
  );
}

/** The sidebar: new chat, search over every message and title, and the saved conversations. */
export function ConversationList({ searchRef, composerRef }: { searchRef: React.RefObject<HTMLInputElement | null>; composerRef: React.RefObject<HTMLTextAreaElement | null> }) {
  const { t } = useTranslation();
  const conversations = useApp((s) => s.conversations);
  const current = useApp((s) => s.conversationId);
  const query = useApp((s) => s.searchQuery);
  const hits = useApp((s) => s.searchHits);
  const search = useApp((s) => s.search);
  const newChat = useApp((s) => s.newChat);
  const titled = useMemo(() => titleMatches(conversations, query), [conversations, query]);
  const [text, setText] = useState(query);
  const [error, setError] = useState<unknown>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const onSearch = (v: string) => {
    setText(v);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      search(v).then(
        () => setError(null),
        (e: unknown) => setError(e),
      );
    }, 150);
  };
  return (
    <aside className="sidebar" aria-label={t('sidebar.label')}>
      <button className="primary new-chat" onClick={newChat} title={t('sidebar.newChatTitle')}>
        {t('sidebar.newChat')}
      </button>
      <button className="link small all-tasks" data-testid="open-all-tasks" onClick={() => void useApp.getState().openTasks({ kind: 'all' })}>
        {t('tasks.openAll')}
      </button>
      <input
        ref={searchRef}
        type="search"
        aria-label={t('sidebar.search')}
        placeholder={t('sidebar.searchPlaceholder')}
        title={t('sidebar.searchTitle')}
        value={text}
        onChange={(e) => onSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onSearch('');
        }}
      />
      {error !== null && (
        <div className="field-error">
          <ErrorText error={error} />
        </div>
      )}
      {query.trim() ? (
        <ul className="conv-list" aria-label={t('sidebar.searchResults')}>
          {titled.map((c) => (
            <TitleHit key={`title:${c.id}`} conversation={c} query={query} />
          ))}
          {hits.length === 0 && titled.length === 0 && (
            <li className="conv-empty" data-testid="search-empty">
              <p className="muted small">{t('sidebar.noMatches', { query: query.trim() })}</p>
              <button
                className="link small"
                onClick={() => {
                  onSearch('');
                  searchRef.current?.focus();
                }}
              >
                {t('sidebar.clearSearch')}
              </button>
            </li>
          )}
          {hits.map((h) => (
            <Hit key={h.item_id} hit={h} />
          ))}
        </ul>
      ) : (
        <SavedList conversations={conversations} current={current} composerRef={composerRef} />
      )}
    </aside>
  );
}

/**
 * The saved conversations, newest first. Only the rows in view (and a margin) are rendered: a
 * window with a thousand conversations lays out a few dozen rows (./use-windowed-list.ts).
 */
function SavedList({ conversations, current, composerRef }: { conversations: ConversationSummary[]; current: string; composerRef: React.RefObject<HTMLTextAreaElement | null> }) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  const win = useWindowedList(list, conversations.length);
  return (
    <ul className="conv-list windowed" aria-label={t('sidebar.saved')} ref={list} onScroll={win.onScroll}>
      {conversations.length === 0 && (
        <li className="conv-empty" data-testid="conversations-empty">
          <p className="muted small">{t('sidebar.emptyList')}</p>
          <button className="link small" onClick={() => composerRef.current?.focus()}>
            {t('sidebar.startFirst')}
          </button>
        </li>
      )}
      {win.before > 0 && <li className="conv-space" aria-hidden="true" style={{ height: win.before }} />}
      {conversations.slice(win.start, win.end).map((c) => (
        <Row key={c.id} c={c} active={c.id === current} />
      ))}
      {win.after > 0 && <li className="conv-space" aria-hidden="true" style={{ height: win.after }} />}
    </ul>
  );
}
