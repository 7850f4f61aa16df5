/**
 * What the two remote transports share in the window (docs/ARCHITECTURE.md "Transports"): a URL
 * (its userinfo and query values are secrets), headers, and authorization (none, bearer, OAuth).
 * streamable-http.ts and sse.ts each add their type, choice label and badge.
 */
import type { ServerPatch } from '../../../preload/contract/index.js';
import { t, useTranslation } from '../i18n';
import { AuthFields, authInput } from '../components/AuthFields';
import { UrlSecrets, urlSecretsPatch } from '../components/SecretParts';
import type { TransportUi, ValueRowsUi } from './kind';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HTTP_URL = /^https?:\/\/.+/;

const headerRows: ValueRowsUi = {
  field: 'headers',
  nameRule: HEADER_NAME,
  placeholder: () => t('addServer.headerNamePlaceholder'),
  title: () => t('addServer.headers'),
  editTitle: () => t('editServer.headerSecrets'),
  cardTitle: () => t('servers.headers'),
  addLabel: () => t('addServer.addHeader'),
  nameLabel: (n) => t('addServer.headerName', { n }),
  valueLabel: (n) => t('addServer.headerValue', { n }),
  newNameLabel: (n) => t('editServer.newHeaderName', { n }),
  newValueLabel: (n) => t('editServer.newHeaderValue', { n }),
  badNames: (names) => t('addServer.errHeaderNames', { names }),
  badName: (name) => t('editServer.errHeaderName', { name }),
};

/** The members both remote transports share (all but `type`, `option`, `badge`, `input`). */
export const remoteUi: Omit<TransportUi, 'type' | 'option' | 'badge' | 'input'> = {
  target: (server) => server.url ?? '',
  values: headerRows,
  stored: (server) => server.headers,

  AddTarget({ draft, set, errors }) {
    const { t } = useTranslation();
    return (
      <>
        <label className="field">
          <span>{t('addServer.url')}</span>
          <input aria-label={t('addServer.url')} className="mono" value={draft.url} onChange={(e) => set({ url: e.target.value })} placeholder={t('addServer.urlPlaceholder')} aria-invalid={!!errors.url} />
          <span className="hint">{t('addServer.urlHint')}</span>
          {errors.url && <span className="field-error" role="alert">{errors.url}</span>}
        </label>
        <AuthFields value={draft.auth} onChange={(auth) => set({ auth })} />
      </>
    );
  },

  checkTarget: (draft) => (HTTP_URL.test(draft.url.trim()) ? {} : { url: t('addServer.errUrl') }),

  EditTarget({ server, draft, set }) {
    const { t } = useTranslation();
    return (
      <>
        <label className="field">
          <span>{t('addServer.url')}</span>
          <input aria-label={t('editServer.urlLabel')} className="mono" value={draft.url} onChange={(e) => set({ url: e.target.value })} />
          <span className="hint">{t('addServer.urlHint')}</span>
        </label>
        <UrlSecrets stored={server.url_secrets} edits={draft.urlEdits} onChange={(urlEdits) => set({ urlEdits })} />
      </>
    );
  },

  EditAuth: ({ server, draft, set }) => <AuthFields value={draft.auth} onChange={(auth) => set({ auth })} stored={server.auth} />,

  targetPatch(server, draft) {
    const patch: ServerPatch = {};
    if (draft.url.trim() !== (server.url ?? '')) {
      if (!HTTP_URL.test(draft.url.trim())) throw new Error(t('addServer.errUrl'));
      patch.url = draft.url.trim();
    }
    const urlSecrets = urlSecretsPatch(server.url_secrets, draft.urlEdits);
    if (urlSecrets) patch.url_secrets = urlSecrets;
    return patch;
  },

  authPatch(server, { auth }) {
    const a: NonNullable<ServerPatch['auth']> = {};
    const kindChanged = auth.kind !== server.auth.kind;
    if (kindChanged) a.kind = auth.kind;
    if (auth.kind === 'bearer') {
      if (auth.token) a.token = auth.token;
      else if (kindChanged) throw new Error(t('auth.errToken'));
    }
    if (auth.kind === 'oauth') {
      if (auth.clientId.trim() !== (server.auth.client_id ?? '')) a.client_id = auth.clientId.trim();
      if (auth.clientSecret) a.client_secret = auth.clientSecret;
      if (auth.scope.trim() !== (server.auth.scope ?? '')) a.scope = auth.scope.trim();
    }
    return Object.keys(a).length ? { auth: a } : {};
  },
};

/** The Add form's input of a remote server of `type`. @throws Error (auth without its token). */
export function remoteInput(type: 'http' | 'sse', draft: { url: string; auth: Parameters<typeof authInput>[0] }, values: Record<string, string>, timeout_seconds: number) {
  return { type, url: draft.url.trim(), headers: values, auth: authInput(draft.auth), timeout_seconds };
}
