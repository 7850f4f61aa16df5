/**
 * What fitting an attachment into a message (or a resource into the viewer) left out or
 * described, in the UI's language (docs/ARCHITECTURE.md "Prompts and resources in chat",
 * "Languages"): each `ContextNote` by its kind, its numbers through the one formatter. The
 * attachment's name is on its chip already, so it is not said again; a part's address is, when it
 * is not the attachment's own. An older entry without notes shows main's English notice.
 */
import type { ContextNote } from '../../../preload/contract/index.js';
import { formatBytes, useTranslation } from '../i18n';

type Tr = (key: string, o?: Record<string, unknown>) => string;

/** One note as a phrase; `own` is the attachment's own address (not repeated). */
function notePhrase(t: Tr, n: ContextNote, own: string | null): string {
  const o = { interpolation: { escapeValue: false } };
  const other = (uri: string | null): uri is string => !!uri && uri !== own;
  switch (n.kind) {
    case 'cut':
      return other(n.uri) ? t('composer.note.cutOf', { chars: n.chars, uri: n.uri, ...o }) : t('composer.note.cut', { chars: n.chars });
    case 'described':
      return t('composer.note.described', { kind: n.content_kind, ...o });
    case 'image_type':
      return t('composer.note.image_type', { mime: n.mime, ...o });
    case 'image_left_out':
      return t(n.why === 'too_large' ? 'composer.note.image_too_large' : 'composer.note.image_over_total', { size: formatBytes(n.bytes), limit: formatBytes(n.limit) });
    case 'binary':
      return other(n.uri) ? t('composer.note.binaryOf', { uri: n.uri, ...o }) : t('composer.note.binary');
    case 'no_content':
      return n.uri ? t('composer.note.no_contentOf', { uri: n.uri, ...o }) : t('composer.note.no_content');
    case 'more_parts':
      return t('composer.note.more_parts', { count: n.count });
    case 'more_messages':
      return t('composer.note.more_messages', { count: n.count });
    case 'malformed':
    case 'no_messages':
      return t(`composer.note.${n.kind}`);
    default:
      return '';
  }
}

/** "Shortened: …" for an attachment's notes (`notice`: main's English, for an entry saved without notes). */
export function ContextNotesText({ notes, notice, uri }: { notes: ContextNote[] | undefined; notice: string; uri: string | null }) {
  const { t } = useTranslation();
  const tt = t as unknown as Tr;
  const phrases = Array.isArray(notes) ? notes.map((n) => notePhrase(tt, n, uri)).filter(Boolean) : [];
  const text = phrases.length ? phrases.join(tt('composer.noteSep')) : notice;
  return <>{tt('composer.cutNotice', { notice: text, interpolation: { escapeValue: false } })}</>;
}
