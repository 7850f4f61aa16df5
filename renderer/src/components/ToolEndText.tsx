/**
 * Why a tool call ended without a result of its own, as the card says it (docs/ARCHITECTURE.md
 * "Languages"): by its `ToolEnd` code in the current language — a cancel, a refusal, a call that
 * got no answer — and where the words are someone else's (the server's error, the user's reason
 * for a denial), those words as sent, under a label saying whose they are. An older entry
 * without its code shows its saved text.
 */
import type { ToolEnd, TranscriptItem } from '../../../preload/contract/index.js';
import { useTranslation } from '../i18n';

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;
type Tr = (key: string, o?: Record<string, unknown>) => string;

const REFUSALS = new Set(['denied', 'disabled', 'cancelled', 'timed_out', 'args_changed', 'unknown_tool', 'held_back', 'server_changed', 'definition_changed']);
const FAILURES = new Set(['server_gone', 'not_connected', 'timeout', 'task_lost', 'other']);

/** The sentence of an end (the entry comes from storage: an unknown code reads as the general one). */
function endSentence(t: Tr, end: ToolEnd): string {
  switch (end.code) {
    case 'cancelled':
      return t(`tool.end.cancelled_${end.by === 'run' || end.by === 'task' ? end.by : 'user'}`);
    case 'refused':
      return t(`tool.end.refused_${REFUSALS.has(end.via) ? end.via : 'general'}`);
    case 'failed':
      // (`other` is not a key's ending here: i18next reads `_other` as a plural form.)
      return t(`tool.end.failed_${end.why !== 'other' && FAILURES.has(end.why) ? end.why : 'general'}`);
    case 'server_error':
      return t('tool.end.server_error_empty');
  }
}

/** The card's error text of a call that ended with `item.end` (or, for an older entry, its saved text). */
export function ToolEndText({ item }: { item: ToolItem }) {
  const { t } = useTranslation();
  const tt = t as unknown as Tr;
  const end = item.end;
  const words = item.error ?? '';
  if (!end || typeof end !== 'object') return <pre className="tool-text error-text" data-testid="tool-error">{words}</pre>;
  // The server's own words: shown as sent, under "The server said:".
  if (end.code === 'server_error' && end.said)
    return (
      <figure className="server-said" data-testid="tool-error" data-end={end.code}>
        <figcaption>{t('serverState.serverSaid')}</figcaption>
        <pre className="tool-text error-text" translate="no" data-testid="tool-error-said">
          {words}
        </pre>
      </figure>
    );
  return (
    <div className="tool-text error-text" data-testid="tool-error" data-end={end.code}>
      {endSentence(tt, end)}
      {end.code === 'refused' && end.via === 'denied' && end.reason && (
        <>
          {' '}
          {t('tool.end.yourReason')} <q translate="no">{end.reason}</q>
        </>
      )}
      {end.code === 'failed' && (end.why === 'other' || !FAILURES.has(end.why)) && words && (
        <pre className="tool-text" translate="no">
          {words}
        </pre>
      )}
    </div>
  );
}
