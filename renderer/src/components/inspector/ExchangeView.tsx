/**
 * One exchange in the inspector: its messages (direction, kind, method, timing, the
 * `input_required` rounds of a 2026-07-28 request), each expandable to its JSON and copyable,
 * and — for a `tools/call` — the replay panel (docs/ARCHITECTURE.md "Protocol inspector").
 */
import { useState } from 'react';
import type { InspectorMessage } from '../../../../preload/contract/index.js';
import { formatTime, useTranslation } from '../../i18n';
import { prettyJson, replayable, type Exchange } from './exchanges';
import { ReplayPanel } from './ReplayPanel';

/** Copy one message as JSON, and say so for a moment. */
function CopyJson({ message }: { message: InspectorMessage }) {
  const { t } = useTranslation();
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  return (
    <button
      className="link"
      onClick={() =>
        void navigator.clipboard.writeText(prettyJson(message)).then(
          () => setDone('copied'),
          () => setDone('failed'),
        )
      }
      onBlur={() => setDone(null)}
    >
      {done === 'copied' ? t('chat.copied') : done === 'failed' ? t('chat.copyFailed') : t('inspector.copy')}
    </button>
  );
}

function MessageRow({ m }: { m: InspectorMessage }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className={`inspector-message ${m.dir} ${m.kind}`} data-testid="inspector-message" data-dir={m.dir} data-kind={m.kind} data-method={m.method ?? ''} data-input-required={m.input_required ? 'true' : undefined}>
      <div className="row">
        <button className="link mono" onClick={() => setOpen(!open)} aria-expanded={open}>
          {m.dir === 'out' ? '→' : '←'} {t(`inspector.kind.${m.kind}`)} {m.method ?? ''}
        </button>
        {m.input_required && <span className="badge warn">{t('inspector.inputRequired')}</span>}
        {m.json === null && <span className="badge">{t('inspector.truncated', { kb: Math.round(m.bytes / 1024) })}</span>}
        <span className="spacer" />
        {m.elapsed_ms !== null && <span className="muted small">{t('tool.ms', { n: m.elapsed_ms })}</span>}
        <span className="muted small">{formatTime(m.ts)}</span>
        <CopyJson message={m} />
      </div>
      {open && (
        <pre className="tool-args" data-testid="inspector-json">
          {prettyJson(m)}
        </pre>
      )}
    </div>
  );
}

/** An exchange: its rows, with the replay panel for a recorded tool call. */
export function ExchangeView({ exchange, server, focused }: { exchange: Exchange; server: string; focused: boolean }) {
  const { t } = useTranslation();
  const [replaying, setReplaying] = useState(false);
  const replay = replayable(exchange);
  return (
    <div className={`inspector-exchange${focused ? ' focused' : ''}`} data-testid="inspector-exchange" data-tag={exchange.tag ?? ''} data-focused={focused ? 'true' : undefined}>
      {exchange.rounds > 0 && <div className="muted small">{t('inspector.rounds', { count: exchange.rounds })}</div>}
      {exchange.tag?.startsWith('replay:') && <div className="muted small">{t('inspector.fromReplay')}</div>}
      {exchange.messages.map((m) => (
        <MessageRow key={m.seq} m={m} />
      ))}
      {replay && !replaying && (
        <button onClick={() => setReplaying(true)}>{t('inspector.replay')}</button>
      )}
      {replay && replaying && <ReplayPanel server={server} exchange={exchange} seq={replay.seq} tool={replay.name} args={replay.args} onClose={() => setReplaying(false)} />}
    </div>
  );
}
