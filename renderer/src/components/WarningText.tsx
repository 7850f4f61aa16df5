/**
 * A banner's words (store/settings.ts `WindowWarning`), in the language current when it shows
 * (docs/ARCHITECTURE.md "Languages"): an app warning by its code with paths, names and the system's
 * words marked as data, a conversation database warning by its code, a server's note that a
 * browser step is finished, or an error as ErrorText says it.
 */
import { useTranslation } from '../i18n';
import { appWarningSentences } from '../i18n/app-warnings';
import { describeConversationsWarning } from '../i18n/conversations-warning';
import { Fill } from '../i18n/Fill';
import { SentencesView } from '../i18n/sentence';
import type { WindowWarning } from '../store/settings';
import { ErrorText } from './ErrorText';

/** One banner's text. */
export function WarningText({ warning: w }: { warning: WindowWarning }) {
  // Re-rendered when the language changes.
  useTranslation();
  switch (w.kind) {
    case 'app':
      return <SentencesView sentences={appWarningSentences(w.warning)} />;
    case 'conversations':
      return <>{describeConversationsWarning(w.warning)}</>;
    case 'url_completed':
      return <Fill k="protocol.urlCompleted" slots={{ server: <strong>{w.server}</strong> }} />;
    case 'error':
      return <ErrorText error={w.error} />;
  }
}
