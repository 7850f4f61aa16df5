/**
 * A server's Logs view: the log main kept (loaded once), then every new entry as main pushes it
 * (`servers.log` events) — no refresh. Where the server declares `logging`, a selector sets its
 * level (`logging/setLevel`). A flooding server is limited in main; the "dropped" counts it
 * writes appear here as lifecycle entries (docs/ARCHITECTURE.md "Protocol features").
 */
import { useEffect, useRef, useState } from 'react';
import type { LogEntry, LoggingLevel, ServerView } from '../../../preload/contract/index.js';
import { call, on } from '../api';
import { useApp } from '../store';
import { formatTime, useTranslation } from '../i18n';
import { ErrorText } from './ErrorText';

/** The MCP log levels, lowest first (the contract's `loggingLevels`; the renderer imports types only). */
const LEVELS: { [L in LoggingLevel]: number } = { debug: 0, info: 1, notice: 2, warning: 3, error: 4, critical: 5, alert: 6, emergency: 7 };
const loggingLevels = Object.keys(LEVELS) as LoggingLevel[];

/** Entries the view keeps (the newest). */
const MAX_SHOWN = 500;

/** The Logs panel of one server card. */
export function ServerLogs({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const name = server.name;
  const upsert = useApp((s) => s.upsertServer);
  const [entries, setEntries] = useState<LogEntry[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const pre = useRef<HTMLPreElement>(null);

  useEffect(() => {
    // Subscribe first; entries pushed before the snapshot arrives are merged after it.
    let early: LogEntry[] | null = [];
    let live = true;
    const off = on('servers.log', (e) => {
      if (e.name !== name) return;
      if (early) early.push(...e.entries);
      else setEntries((cur) => [...(cur ?? []), ...e.entries].slice(-MAX_SHOWN));
    });
    void call('servers.logs', { name }).then(
      (snapshot) => {
        if (!live) return;
        const last = snapshot.length ? snapshot[snapshot.length - 1]!.ts : 0;
        const after = (early ?? []).filter((x) => x.ts > last);
        early = null;
        setEntries([...snapshot, ...after].slice(-MAX_SHOWN));
      },
      () => {
        early = null;
        setEntries([]);
      },
    );
    return () => {
      live = false;
      off();
    };
  }, [name]);

  // Follow the newest entry.
  useEffect(() => {
    if (pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [entries]);

  const setLevel = async (level: LoggingLevel) => {
    setError(null);
    try {
      upsert(await call('servers.setLogLevel', { name, level }));
    } catch (err) {
      setError(err);
    }
  };

  if (entries === null) return <div className="muted">{t('common.loading')}</div>;
  const logging = server.protocol.logging;
  return (
    <div className="logs">
      <div className="row">
        <span className="muted small">{t('protocol.logsLive')}</span>
        <span className="spacer" />
        {logging.supported ? (
          <label className="check">
            {t('protocol.logsLevel')}{' '}
            <select aria-label={t('protocol.logsLevel')} value={logging.level ?? ''} onChange={(e) => void setLevel(e.target.value as LoggingLevel)}>
              <option value="" disabled>
                {t('protocol.logsLevelDefault')}
              </option>
              {loggingLevels.map((l) => (
                <option key={l} value={l}>
                  {t(`protocol.level_${l}`)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          server.state.kind === 'ready' && <span className="muted small">{t('protocol.logsLevelUnsupported')}</span>
        )}
      </div>
      {error !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
      <pre className="log-lines" data-testid="server-logs" ref={pre}>
        {entries.length === 0 ? t('servers.noLogs') : entries.map((e) => `${formatTime(e.ts)} [${e.source}] ${e.text}`).join('\n')}
      </pre>
    </div>
  );
}
