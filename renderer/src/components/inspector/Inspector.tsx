/**
 * The protocol inspector of one server (docs/ARCHITECTURE.md "Protocol inspector"): the MCP
 * traffic main recorded for it — loaded once, then every batch main pushes
 * (`inspector.messages`) — grouped into exchanges, filtered by method and text, bounded in what
 * it keeps and renders; save to a `.jsonl` file, clear, copy a message, replay a `tools/call`;
 * switch recording of this server on or off (main keeps the choice across restarts).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { InspectorMessage, InspectorSaveResult } from '../../../../preload/contract/index.js';
import { call, on } from '../../api';
import { useApp } from '../../store';
import { useTranslation } from '../../i18n';
import { appendMessages, filterExchanges, methodsOf, toExchanges, visibleWindow } from './exchanges';
import { ExchangeView } from './ExchangeView';
import { ErrorText } from '../ErrorText';

/** The inspector dialog, when the store says one is open. */
export function InspectorDialog() {
  const target = useApp((s) => s.inspector);
  const close = useApp((s) => s.closeInspector);
  if (!target) return null;
  return <Inspector key={`${target.server}\u0000${target.focus ?? ''}`} server={target.server} focus={target.focus} onClose={close} />;
}

function Inspector({ server, focus, onClose }: { server: string; focus: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<InspectorMessage[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [method, setMethod] = useState('');
  const [text, setText] = useState('');
  const [saved, setSaved] = useState<InspectorSaveResult | null>(null);
  const [reloads, setReloads] = useState(0);
  /** Whether main records this server (null until the snapshot said). */
  const [recording, setRecording] = useState<boolean | null>(null);
  const focusRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Subscribe first; batches that arrive before the snapshot are merged after it.
    let early: InspectorMessage[] | null = [];
    let live = true;
    const off = on('inspector.messages', (e) => {
      if (e.server !== server) return;
      // Main left messages out of a batch (a flood): read the whole ring again.
      if (e.dropped > 0) return setReloads((n) => n + 1);
      if (early) early.push(...e.messages);
      else setMessages((cur) => appendMessages(cur ?? [], e.messages));
    });
    void call('inspector.list', { server }).then(
      (snap) => {
        if (!live) return;
        const merged = appendMessages(snap.messages, early ?? []);
        early = null;
        setMessages(merged);
        setRecording(snap.recording);
      },
      (err: unknown) => {
        early = null;
        setError(err);
        setMessages([]);
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [server, reloads]);

  const exchanges = useMemo(() => toExchanges(messages ?? []), [messages]);
  const methods = useMemo(() => methodsOf(messages ?? []), [messages]);
  const filtered = useMemo(() => filterExchanges(exchanges, method, text), [exchanges, method, text]);
  const { shown, hidden } = useMemo(() => visibleWindow(filtered, focus), [filtered, focus]);
  const focusedFound = focus !== null && shown.some((ex) => ex.tag === focus);

  // Jump to the focused call once its messages are shown.
  useEffect(() => {
    if (focusedFound) focusRef.current?.scrollIntoView({ block: 'start' });
  }, [focusedFound]);

  const save = async () => {
    setError(null);
    try {
      setSaved(await call('inspector.save', { server }));
    } catch (err) {
      setError(err);
    }
  };
  const clear = async () => {
    setError(null);
    try {
      await call('inspector.clear', { server });
      setMessages([]);
    } catch (err) {
      setError(err);
    }
  };

  const switchRecording = async (on: boolean) => {
    setError(null);
    // Shown at once; main's answer (or the state before, when it failed) follows.
    setRecording(on);
    try {
      setRecording((await call('inspector.setRecording', { server, on })).recording);
    } catch (err) {
      setRecording(!on);
      setError(err);
    }
  };

  let focusAssigned = false;
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal inspector"
        role="dialog"
        aria-modal="true"
        aria-label={t('inspector.label', { server })}
        data-testid="inspector"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <div className="row">
          <strong>{t('inspector.label', { server })}</strong>
          <span className="spacer" />
          <label className="check">
            <input
              type="checkbox"
              data-testid="inspector-recording"
              checked={recording ?? false}
              disabled={recording === null}
              onChange={(e) => void switchRecording(e.target.checked)}
            />{' '}
            {t('inspector.record')}
          </label>
          <button onClick={() => void save()}>{t('inspector.save')}</button>
          <button onClick={() => void clear()}>{t('inspector.clear')}</button>
          <button onClick={onClose} autoFocus>
            {t('common.close')}
          </button>
        </div>
        <p className="muted small">{t('inspector.note')}</p>
        {recording === false && (
          <div className="notice info" role="status" data-testid="inspector-off">
            {t('inspector.off')}
          </div>
        )}
        <div className="row inspector-filters">
          <label className="check">
            {t('inspector.method')}{' '}
            <select aria-label={t('inspector.method')} value={method} onChange={(e) => setMethod(e.target.value)}>
              <option value="">{t('inspector.anyMethod')}</option>
              {methods.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
          <input type="search" aria-label={t('inspector.search')} placeholder={t('inspector.search')} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        {saved && (
          <div className="notice info" role="status" data-testid="inspector-saved">
            {t('inspector.saved', { count: saved.count, path: saved.path })}
          </div>
        )}
        {error !== null && (
          <div className="field-error" role="alert">
            <ErrorText error={error} />
          </div>
        )}
        {focus !== null && messages !== null && !focusedFound && <div className="muted small">{t('inspector.focusMissing')}</div>}
        {messages === null ? (
          <div className="muted">{t('common.loading')}</div>
        ) : filtered.length === 0 ? (
          <div className="muted" data-testid="inspector-empty">
            {messages.length === 0 ? t('inspector.empty') : t('inspector.noMatch')}
          </div>
        ) : (
          <div className="inspector-list" data-testid="inspector-list">
            {hidden > 0 && <div className="muted small">{t('inspector.hidden', { count: hidden })}</div>}
            {shown.map((ex) => {
              const focused = !focusAssigned && focus !== null && ex.tag === focus;
              if (focused) focusAssigned = true;
              return (
                <div key={ex.key} ref={focused ? focusRef : undefined}>
                  <ExchangeView exchange={ex} server={server} focused={focused} />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
