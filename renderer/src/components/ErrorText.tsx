/**
 * An error from main as the user reads it (docs/ARCHITECTURE.md "Languages"): a server that did
 * not start — an added server's command not found, an edit's trial start — by its failure's
 * sentences, with the command as data and the server's own output under a label saying so; any
 * other error with facts by their sentences, each name, URI, path or code and anyone's own words
 * shown as sent and marked as data (`translate="no"`); the rest by its text (`ApiError.message`,
 * already worded by its code).
 */
import { ApiError } from '../api';
import { useTranslation } from '../i18n';
import { factSentences } from '../i18n/error-facts';
import { SentencesView } from '../i18n/sentence';
import { FailureFacts } from '../i18n/server-state';

/** The error `error` (anything a call rejected with) as elements. */
export function ErrorText({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (error instanceof ApiError && error.fact?.kind === 'server_failure')
    return (
      <div className="error-facts" data-testid="error-facts">
        {error.code === 'start_failed' && <div>{t('errors.notSavedEdit')}</div>}
        <FailureFacts failure={error.fact.failure} stderr={error.fact.stderr} />
      </div>
    );
  const sentences = error instanceof ApiError && error.fact ? factSentences(error.fact, error.code) : [];
  if (sentences.length)
    return (
      <span data-testid="error-text" data-fact={error instanceof ApiError ? error.fact?.kind : undefined}>
        <SentencesView sentences={sentences} />
      </span>
    );
  return <>{error instanceof Error ? error.message : String(error)}</>;
}
