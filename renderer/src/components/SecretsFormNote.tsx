/**
 * Where secrets are typed in (the server forms, a model profile's key, a catalog entry's secret
 * answers): once Settings' notice that secrets are not in an OS keychain was hidden for the
 * session, the same two sentences in one small line, so the form stays truthful about where what
 * is typed goes. Nothing while secrets are in a keychain or the notice still shows.
 */
import { useTranslation } from '../i18n';
import { useApp } from '../store';

/** The keychain notice beside a form's secret fields (or nothing). */
export function SecretsFormNote() {
  const { t } = useTranslation();
  const secrets = useApp((s) => s.secrets);
  const hidden = useApp((s) => s.secretsNoticeHidden);
  if (!secrets || secrets.kind === 'keychain' || !hidden) return null;
  return (
    <p className="hint secrets-form-note" data-testid="secrets-form-note">
      <strong>{t('settings.keychainMissing')}</strong> {t(`settings.secretsNote.${secrets.kind}`)}
    </p>
  );
}
