import type { AuthInput } from '../../../preload/contract/index.js';
import { t as translate, useTranslation } from '../i18n';

/** Form state of a remote server's authorization. */
export interface AuthFormState {
  kind: 'none' | 'bearer' | 'oauth';
  token: string;
  clientId: string;
  clientSecret: string;
  scope: string;
}

export const emptyAuth: AuthFormState = { kind: 'none', token: '', clientId: '', clientSecret: '', scope: '' };

/** Turn the form state into contract input for a new server. @throws Error with a user-facing message. */
export function authInput(a: AuthFormState): AuthInput {
  if (a.kind === 'none') return { kind: 'none' };
  if (a.kind === 'bearer') {
    if (!a.token) throw new Error(translate('auth.errToken'));
    return { kind: 'bearer', token: a.token };
  }
  return {
    kind: 'oauth',
    ...(a.clientId.trim() ? { client_id: a.clientId.trim() } : {}),
    ...(a.clientSecret ? { client_secret: a.clientSecret } : {}),
    ...(a.scope.trim() ? { scope: a.scope.trim() } : {}),
  };
}

/**
 * Authorization inputs for a remote server: none, a bearer token (a secret), or OAuth sign-in
 * with an optional pre-registered client (for servers without dynamic client registration).
 * `stored` lists what is already stored (edit form): secret inputs then start empty and mean
 * "unchanged" when left so.
 */
export function AuthFields({
  value,
  onChange,
  stored,
}: {
  value: AuthFormState;
  onChange: (v: AuthFormState) => void;
  stored?: { has_token: boolean; has_client_secret: boolean; kind: AuthFormState['kind'] };
}) {
  const { t } = useTranslation();
  const keep = (has: boolean | undefined) => (stored && has && stored.kind === value.kind ? t('auth.unchangedStored') : '');
  return (
    <div className="field">
      <span>{t('auth.label')}</span>
      <select aria-label={t('auth.label')} value={value.kind} onChange={(e) => onChange({ ...value, kind: e.target.value as AuthFormState['kind'] })}>
        <option value="none">{t('auth.none')}</option>
        <option value="bearer">{t('auth.bearer')}</option>
        <option value="oauth">{t('auth.oauth')}</option>
      </select>
      {value.kind === 'bearer' && (
        <input
          aria-label={t('auth.bearer')}
          type="password"
          autoComplete="off"
          placeholder={keep(stored?.has_token) || t('auth.tokenPlaceholder')}
          value={value.token}
          onChange={(e) => onChange({ ...value, token: e.target.value })}
        />
      )}
      {value.kind === 'oauth' && (
        <details className="oauth-advanced">
          <summary className="hint">{t('auth.preRegistered')}</summary>
          <input aria-label={t('auth.clientId')} className="mono" placeholder={t('auth.clientIdPlaceholder')} value={value.clientId} onChange={(e) => onChange({ ...value, clientId: e.target.value })} />
          <input
            aria-label={t('auth.clientSecret')}
            type="password"
            autoComplete="off"
            placeholder={keep(stored?.has_client_secret) || t('auth.clientSecretPlaceholder')}
            value={value.clientSecret}
            onChange={(e) => onChange({ ...value, clientSecret: e.target.value })}
          />
          <input aria-label={t('auth.scope')} className="mono" placeholder={t('auth.scopePlaceholder')} value={value.scope} onChange={(e) => onChange({ ...value, scope: e.target.value })} />
        </details>
      )}
    </div>
  );
}
