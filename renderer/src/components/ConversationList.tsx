import { useEffect, useRef, useState } from 'react';
import type { ConversationSummary, SearchHit } from '../../../preload/contract/index.js';
import { useApp } from '../store';

/** "3 min ago", "yesterday", or a date. */
function when(ts: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ts) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 2 * 86_400) return 'yesterday';
  return new Date(ts).toLocaleDateString();
}

/** A snippet with matched words (marked by main with \u0001…\u0002) highlighted; no markup from data. */
function Snippet({ text }: { text: string }) {
  // eslint-disable-next-line no-control-regex -- main marks matches with these two control characters
  const parts = text.split(/(\u0001[^\u0002]*\u0002)/);
  return (
    <>
      {parts.map((p, i) => (p.startsWith('\u0001') ? <mark key={i}>{p.slice(1, -1)}</mark> : <span key={i}>{p}</span>))}
    </>
  );
}

function Row({ c, active }: { c: ConversationSummary; active: boolean }) {
  const open = useApp((s) => s.openConversation);
  const rename = useApp((s) => s.renameConversation);
  const remove = useApp((s) => s.removeConversation);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [title, setTitle] = useState(c.title);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    try {
      await rename(c.id, title);
      setEditing(false);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (editing)
    return (
      <li className="conv-row editing">
        <input
          aria-label="Conversation title"
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
          <button onClick={() => void save()}>Save</button>
          <button onClick={() => setEditing(false)}>Cancel</button>
        </div>
        {error && <div className="field-error">{error}</div>}
      </li>
    );
  return (
    <li className={`conv-row${active ? ' active' : ''}`} data-testid="conversation">
      <button className="conv-open" onClick={() => void open(c.id)} aria-current={active ? 'true' : undefined} title={c.title}>
        <span className="conv-title">{c.title}</span>
        <span className="conv-meta muted small">
          {c.running && <span className="tool-icon running" aria-label="answering" />} {when(c.updated_at)} · {c.message_count === 1 ? '1 message' : `${c.message_count} messages`}
        </span>
      </button>
      {confirming ? (
        <div className="conv-confirm" role="group" aria-label="Confirm delete">
          <span className="small">Delete this conversation?</span>
          <button className="danger" onClick={() => void remove(c.id).catch((e: Error) => setError(e.message))}>
            Delete
          </button>
          <button onClick={() => setConfirming(false)}>Keep</button>
        </div>
      ) : (
        <div className="conv-actions">
          <button
            className="icon"
            aria-label={`Rename ${c.title}`}
            title="Rename"
            onClick={() => {
              setTitle(c.title);
              setEditing(true);
            }}
          >
            ✎
          </button>
          <button className="icon" aria-label={`Delete ${c.title}`} title="Delete" onClick={() => setConfirming(true)}>
            ✕
          </button>
        </div>
      )}
      {error && <div className="field-error">{error}</div>}
    </li>
  );
}

function Hit({ hit }: { hit: SearchHit }) {
  const open = useApp((s) => s.openConversation);
  return (
    <li className="conv-row" data-testid="search-hit">
      <button className="conv-open" onClick={() => void open(hit.conversation_id, hit.item_id)}>
        <span className="conv-title">{hit.title}</span>
        <span className="conv-snippet small">
          <Snippet text={hit.snippet} />
        </span>
      </button>
    </li>
  );
}

/** The sidebar: new chat, search over every message, and the saved conversations. */
export function ConversationList({ searchRef }: { searchRef: React.RefObject<HTMLInputElement | null> }) {
  const conversations = useApp((s) => s.conversations);
  const current = useApp((s) => s.conversationId);
  const query = useApp((s) => s.searchQuery);
  const hits = useApp((s) => s.searchHits);
  const search = useApp((s) => s.search);
  const newChat = useApp((s) => s.newChat);
  const [text, setText] = useState(query);
  const [error, setError] = useState<string | null>(null);
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
        (e: Error) => setError(e.message),
      );
    }, 150);
  };
  return (
    <aside className="sidebar" aria-label="Conversations">
      <button className="primary new-chat" onClick={newChat} title="New chat (Ctrl+Shift+O)">
        + New chat
      </button>
      <input
        ref={searchRef}
        type="search"
        aria-label="Search conversations"
        placeholder="Search messages (Ctrl+K)"
        value={text}
        onChange={(e) => onSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onSearch('');
        }}
      />
      {error && <div className="field-error">{error}</div>}
      {query.trim() ? (
        <ul className="conv-list" aria-label="Search results">
          {hits.length === 0 && <li className="muted small conv-empty">No message matches.</li>}
          {hits.map((h) => (
            <Hit key={h.item_id} hit={h} />
          ))}
        </ul>
      ) : (
        <ul className="conv-list" aria-label="Saved conversations">
          {conversations.length === 0 && <li className="muted small conv-empty">Your conversations will be listed here.</li>}
          {conversations.map((c) => (
            <Row key={c.id} c={c} active={c.id === current} />
          ))}
        </ul>
      )}
    </aside>
  );
}
