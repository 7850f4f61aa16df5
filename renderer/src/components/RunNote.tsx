/**
 * The text of a notice in the transcript: main's English text, or — for the notes main sends with
 * their numbers — the words of the window's language: which tools a run offered and found (tool
 * discovery), why a request was not sent (it does not fit the context window), and that the user
 * stopped the run.
 * docs/ARCHITECTURE.md "Tool discovery", "Context budget".
 */
import type { ContextFitNote, TranscriptItem } from '../../../preload/contract/index.js';
import { useTranslation } from '../i18n';
import { said, SentencesView } from '../i18n/sentence';
import { ModelErrorText } from './ModelErrorText';

type NoticeItem = Extract<TranscriptItem, { kind: 'notice' }>;
type T = (key: string, o?: Record<string, unknown>) => string;

/** What fitting the conversation into the context window left out, or that even that was not enough. */
function contextFitText(t: T, f: ContextFitNote): string {
  if (f.still_too_long) return t('contextFit.tooLong', { estimated: f.estimated_tokens, budget: f.budget_tokens });
  const parts: string[] = [];
  if (f.shortened) parts.push(f.current_turn ? t('contextFit.shortened', { count: f.shortened }) : t('contextFit.shortenedOlder', { count: f.shortened }));
  if (f.removed) parts.push(t('contextFit.removed', { count: f.removed }));
  if (f.dropped_messages) parts.push(t('contextFit.dropped', { count: f.dropped_messages }));
  return t('contextFit.fitted', { parts: parts.join(t('importExport.listSep')) });
}

/** A notice's body. */
export function NoticeText({ item }: { item: NoticeItem }) {
  const { t } = useTranslation();
  const tools = item.run_tools;
  if (tools?.stage === 'offered') {
    const why = tools.reason === 'count' ? t('runNote.whyCount', { max: tools.max_tools ?? 0 }) : t('runNote.whyTokens', { max: tools.max_tokens });
    // The servers' tools, counted as the chat counts them; the app's own tools said apart.
    const host = tools.host_offered ?? [];
    return (
      <span data-testid="run-tools-note" data-stage="offered">
        {t('runNote.offered', { offered: tools.offered.length, total: tools.total, why })}{' '}
        <details className="run-note-list">
          <summary>{t('runNote.showOffered')}</summary>
          {/* How the app's own tools were counted is detail: with the list, not in the sentence. */}
          {!!tools.host_total && <div>{t('runNote.hostTools', { count: tools.host_total, offered: host.length })}</div>}
          <span className="mono small">{[...tools.offered, ...host].join(', ')}</span>
        </details>
      </span>
    );
  }
  if (tools?.stage === 'found')
    return (
      <span data-testid="run-tools-note" data-stage="found">
        {t('runNote.found', { count: tools.found.length })} <span className="mono">{tools.found.join(', ')}</span>
      </span>
    );
  const o = item.context_overflow;
  if (o)
    return (
      <span data-testid="context-overflow-note">
        {t('overflow.notSent', { needed: o.needed, window: o.context_window })}{' '}
        {t('overflow.parts', { tools: o.tool_tokens, count: o.tool_count, system: o.system_tokens, conversation: o.conversation_tokens, answer: o.answer_reserve })}{' '}
        {t(o.conversation_tokens > o.tool_tokens ? 'overflow.adviceConversation' : 'overflow.advice')}
      </span>
    );
  if (item.run_end === 'stopped') return <span data-testid="run-stopped-note">{t('runNote.stopped')}</span>;
  const failed = item.model_error;
  if (failed)
    return (
      <span data-testid="model-error-note" data-code={failed.code}>
        <ModelErrorText code={failed.code} detail={failed.detail} />
      </span>
    );
  const fit = item.context_fit;
  if (fit) return <span data-testid="context-fit-note">{contextFitText(t as unknown as T, fit)}</span>;
  // The database failed at the run's end: the window's sentence, the database's words as sent.
  if (item.save_failed)
    return (
      <span data-testid="save-failed-note">
        <SentencesView
          sentences={[
            { k: 'runNote.saveFailed', slots: {} },
            { k: 'errors.systemSaid', slots: { said: said(item.save_failed.said) } },
          ]}
        />
      </span>
    );
  return <>{item.text}</>;
}
