import { useEffect, useRef, useState } from 'react';
import { useApp } from '../store';
import { call as call_ } from '../api';
import type { ToolCallItem } from '../store/chat';
import { LocalModelOffers } from './LocalModelOffers';
import { Markdown } from './Markdown';
import { ToolResult } from './ToolResult';

/** A tool call: namespaced name, arguments, result or error, duration. */
export function ToolCard({ call }: { call: ToolCallItem }) {
  const [open, setOpen] = useState(true);
  const runId = useApp((s) => s.runId);
  return (
    <div className={`tool-card ${call.status}`} data-testid="tool-card">
      <button className="tool-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className={`tool-icon ${call.status}`} aria-label={call.status} />
        <span className="tool-name" data-testid="tool-name">
          {call.tool}
        </span>
        <span className="muted">{call.server}</span>
        <span className="spacer" />
        <span className="muted" data-testid="tool-duration">
          {call.duration_ms === null ? 'running…' : `${call.duration_ms} ms`}
        </span>
      </button>
      {call.status === 'running' && runId && (
        <button className="link cancel-call" onClick={() => void call_('chat.cancelTool', { run_id: runId, call_id: call.call_id })}>
          Cancel this call
        </button>
      )}
      {open && (
        <div className="tool-body">
          <div className="label">Arguments</div>
          <pre className="tool-args" data-testid="tool-args">
            {JSON.stringify(call.args, null, 2)}
          </pre>
          {call.status !== 'running' && (
            <>
              <div className="label">{call.status === 'error' ? 'Error' : 'Result'}</div>
              <div data-testid="tool-result">
                {call.status === 'error' && call.content.length === 0 ? <pre className="tool-text error-text">{call.error}</pre> : <ToolResult content={call.content} progress={null} />}
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** The chat: transcript with streamed answers and tool cards, an input, Send and Stop. */
export function ChatView({ onOpenSettings }: { onOpenSettings: () => void }) {
  const items = useApp((s) => s.items);
  const runId = useApp((s) => s.runId);
  const model = useApp((s) => s.model);
  const tools = useApp((s) => s.serverOrder.reduce((n, k) => n + (s.servers[k]?.tool_count ?? 0), 0));
  const send = useApp((s) => s.send);
  const stop = useApp((s) => s.stop);
  const newChat = useApp((s) => s.newChat);
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  // A block body: an effect must return nothing or a cleanup function, and newer Chromium makes
  // scrollIntoView() return a Promise, which React would call as a cleanup on unmount (crash).
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [items]);

  const submit = () => {
    const t = text.trim();
    if (!t || runId) return;
    setText('');
    void send(t);
  };

  return (
    <div className="chat">
      <div className="chat-toolbar">
        <span className="muted">
          {model?.configured ? `Model: ${model.model}` : 'No model configured'} · {tools} tools available
        </span>
        <span className="spacer" />
        <button onClick={() => void newChat()}>New chat</button>
      </div>
      <div className="transcript" data-testid="transcript">
        {items.length === 0 && (
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
        {items.map((it) => {
          if (it.kind === 'user')
            return (
              <div key={it.id} className="msg user" data-testid="msg-user">
                {it.text}
              </div>
            );
          if (it.kind === 'assistant')
            return (
              <div key={it.id} className="msg assistant" data-testid="msg-assistant">
                <Markdown text={it.text} streaming={runId !== null && it === items[items.length - 1]} />
              </div>
            );
          if (it.kind === 'tool') return <ToolCard key={it.id} call={it.call} />;
          return (
            <div key={it.id} className={`notice ${it.tone}`} data-testid="chat-notice">
              {it.text}
            </div>
          );
        })}
        <div ref={end} />
      </div>
      <div className="composer">
        <textarea
          aria-label="Message"
          placeholder="Message the model…  (Enter to send, Shift+Enter for a new line)"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {runId ? (
          <button className="danger" onClick={() => void stop()}>
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
