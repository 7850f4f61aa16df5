/**
 * The prompts and resources a sent message carried (`TranscriptItem.context`), as chips on it: a
 * prompt expands to its messages, a resource opens in the viewer (./ResourceViewer.tsx); a note
 * says what was cut (docs/ARCHITECTURE.md "Prompts and resources in chat").
 */
import type { ContextEntry } from '../../../preload/contract/index.js';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { ContextNotesText } from './ContextNotesText';

/** The prompts and resources a sent message carried (a resource opens in the viewer). */
export function ContextChips({ context }: { context: ContextEntry[] }) {
  const { t } = useTranslation();
  const openResource = useApp((s) => s.openResource);
  return (
    <ul className="chips sent" aria-label={t('composer.attachments')} data-testid="msg-context">
      {context.map((c, i) => (
        <li key={i} className="chip" title={c.kind === 'resource' ? c.uri : c.kind === 'text' ? c.title : `${c.server}/${c.name}`}>
          <span className="chip-kind">{c.kind === 'prompt' ? t('composer.promptChip') : c.kind === 'text' ? t('composer.textChip') : t('composer.resourceChip')}</span>{' '}
          {c.kind === 'text' ? (
            <details className="prompt-messages">
              <summary>{c.title}</summary>
              {c.content.map((b, k) => (b.type === 'text' ? <pre key={k} className="tool-text">{b.text.slice(0, 2000)}{b.text.length > 2000 ? '…' : ''}</pre> : null))}
            </details>
          ) : c.kind === 'resource' ? (
            <button className="link" onClick={() => void openResource(c.server, c.uri)}>
              {c.server}/{c.title}
            </button>
          ) : (
            <details className="prompt-messages">
              <summary>
                {c.server}/{c.title}
              </summary>
              {c.messages.map((m, j) => (
                <div key={j} className={`prompt-message ${m.role}`} data-testid="prompt-message">
                  {m.content.map((b, k) => (b.type === 'text' ? <pre key={k} className="tool-text">{b.text}</pre> : <img key={k} className="tool-image" alt={t('composer.viewerImageAlt')} src={`data:${b.mimeType};base64,${b.data}`} />))}
                </div>
              ))}
            </details>
          )}
          {c.notice && (
            <span className="muted small" data-testid="context-notes">
              {' · '}
              <ContextNotesText notes={c.notes} notice={c.notice} uri={c.kind === 'resource' ? c.uri : null} />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
