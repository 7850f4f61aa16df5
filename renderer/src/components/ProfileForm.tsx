/**
 * Settings → Model: the form of one model profile (new or saved): name, provider, base URL,
 * model (typed, or picked from the list "Test connection" fetched), API key (this profile's own;
 * the input starts empty and only says whether one is stored), system prompt, context window and
 * whether the model accepts images. Warns when a key would travel unencrypted and when a changed
 * server address will drop the stored key.
 */
import { useEffect, useRef, useState } from 'react';
import type { ConnectionTestResult, ContextWindowSource, ModelInfo, ModelProfileView, ModelProvider } from '../../../preload/contract/index.js';
import { keyWouldTravelInClear } from '../../../preload/contract/rules/index.js';
import { ApiError, call } from '../api';
import { useTranslation } from '../i18n';
import { ModelErrorText } from './ModelErrorText';
import { SecretsFormNote } from './SecretsFormNote';
import { ErrorText } from './ErrorText';

/** The fields a refusal can be shown beside. */
type ProfileField = 'name' | 'base_url' | 'model';

/** Whether a base URL starts with `http://` or `https://` (what the profile's requests need). */
function hasHttpScheme(url: string): boolean {
  return /^https?:\/\/\S/i.test(url.trim());
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}


/** The form of one profile; `profile` null = a new profile. `onSaved` gets the saved view. */
export function ProfileForm({ profile, onSaved, isFirst, justSaved = false }: { profile: ModelProfileView | null; onSaved: (p: ModelProfileView) => void; isFirst: boolean; justSaved?: boolean }) {
  const { t } = useTranslation();
  const [name, setName] = useState(profile?.name ?? '');
  const [provider, setProvider] = useState<ModelProvider>(profile?.provider ?? 'openai-compatible');
  const [baseUrl, setBaseUrl] = useState(profile?.base_url ?? '');
  const [model, setModel] = useState(profile?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [systemPrompt, setSystemPrompt] = useState(profile?.system_prompt ?? '');
  // The window field: empty while the window is a guess (main guesses it where it is used and the
  // form says so); a number only when the provider or the user gave one.
  const [contextWindow, setContextWindow] = useState(profile && profile.context_window_source !== 'default' ? String(profile.context_window) : '');
  const [windowSource, setWindowSource] = useState<ContextWindowSource>(profile?.context_window_source ?? 'default');
  const [acceptsImages, setAcceptsImages] = useState<boolean | null>(profile ? profile.accepts_images : null);
  const [makeDefault, setMakeDefault] = useState(false);
  const [models, setModels] = useState<ModelInfo[] | null>(null);
  // The last "Test connection": its result, or the call's own failure (already worded).
  const [test, setTest] = useState<ConnectionTestResult | { ok: false; error: unknown } | null>(null);
  const [testing, setTesting] = useState(false);
  // A new profile's form is replaced by the saved profile's form: it starts by saying "Saved.".
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(justSaved ? { tone: 'ok', text: t('profile.saved') } : null);
  const [busy, setBusy] = useState(false);
  // Refusals shown beside their field (the form's own checks, or main's by `field`).
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<ProfileField, string>>>({});
  // Every provider needs an address (the contract has no default; choosing Anthropic fills its
  // own): an empty one is "required", one without http(s):// is told how to start.
  const baseUrlError = (): string | null =>
    !baseUrl.trim() ? t('validation.required', { field: t('validation.field.base_url') }) : hasHttpScheme(baseUrl) ? null : t('profile.errScheme');
  /** Every problem the form can see itself, each for its own field: all are shown at once. */
  const formErrors = (): Partial<Record<ProfileField, string>> => {
    const out: Partial<Record<ProfileField, string>> = {};
    const address = baseUrlError();
    if (address) out.base_url = address;
    if (!model.trim()) out.model = t('validation.required', { field: t('validation.field.model') });
    return out;
  };

  /** A changed address or key: the last failed test and the address refusal no longer apply. */
  const staleAfterEdit = (): void => {
    setTest((cur) => (cur && !cur.ok ? null : cur));
    setFieldErrors((f) => (f.base_url ? { ...f, base_url: undefined } : f));
  };

  const stored = profile?.api_key.has_value === true && !clearKey;
  const originChanged = stored && !apiKey && originOf(baseUrl.trim()) !== null && originOf(baseUrl.trim()) !== originOf(profile!.base_url);
  const clearText = keyWouldTravelInClear(baseUrl.trim()) && (apiKey.length > 0 || (stored && !originChanged));
  const knownImages = models?.find((m) => m.id === model.trim())?.accepts_images;
  // The window the provider states for the model in the field (from "Test connection").
  const knownWindow = models?.find((m) => m.id === model.trim())?.context_window ?? null;
  const useKnownWindow = (w: number | null): void => {
    if (w === null) return;
    setContextWindow(String(w));
    setWindowSource('provider');
  };

  /**
   * Check the connection and list the models. `learnWindow`: a window the provider states fills an
   * empty window field (the user's Test connection); the check after a save only offers it, so a
   * saved form is not changed behind the user's back.
   */
  /**
   * What an empty window field means: the window the app assumes (the saved guess, while the model
   * and address are the saved ones), and whether the provider says it (after a test) or may.
   */
  const guessText = (): string => {
    const saved = profile && profile.context_window_source === 'default' && profile.provider === provider && profile.model === model.trim() && profile.base_url === baseUrl.trim() ? profile.context_window : null;
    const assumed = saved !== null ? t('profile.windowAssumed', { tokens: saved }) : t('profile.windowGuess');
    if (knownWindow !== null) return assumed;
    return `${assumed} ${models !== null ? t('profile.windowProviderSilent') : t('profile.windowTestToLearn')}`;
  };

  const runTest = async (learnWindow = true) => {
    const bad = baseUrlError();
    setFieldErrors((f) => ({ ...f, base_url: bad ?? undefined }));
    if (bad) return;
    setTesting(true);
    setTest(null);
    try {
      const r = await call('profiles.test', {
        ...(profile ? { id: profile.id } : {}),
        provider,
        base_url: baseUrl.trim(),
        ...(clearKey ? { api_key: '' } : apiKey ? { api_key: apiKey } : {}),
      });
      // A failure is worded by its code and detail when shown (in the language current then).
      setTest(r);
      if (r.ok) {
        setModels(r.models);
        // The one model the endpoint serves goes into an empty model field.
        if (r.models.length === 1 && !model.trim()) setModel(r.models[0]!.id);
        // A guessed window gives way to the one the provider states for this model.
        if (learnWindow && windowSource === 'default') useKnownWindow(r.models.find((m) => m.id === model.trim())?.context_window ?? null);
      }
    } catch (err) {
      setTest({ ok: false, error: err });
    } finally {
      setTesting(false);
    }
  };

  // After a save, check the connection at once, so a wrong URL or key shows before the first chat.
  const checkedAfterSave = useRef(false);
  useEffect(() => {
    if (justSaved && profile && !checkedAfterSave.current) {
      checkedAfterSave.current = true;
      void runTest(false);
    }
    // Runs once for the form of a profile that was just saved.
  }, []);

  const save = async () => {
    const bad = formErrors();
    setFieldErrors(bad);
    if (Object.keys(bad).length) return;
    setBusy(true);
    setStatus(null);
    try {
      const cw = contextWindow.trim() ? Number(contextWindow.trim()) : undefined;
      const view = await call('profiles.save', {
        ...(profile ? { id: profile.id } : {}),
        name: name.trim() || model.trim() || t('profile.defaultName'),
        provider,
        base_url: baseUrl.trim(),
        model: model.trim(),
        system_prompt: systemPrompt.trim() ? systemPrompt : null,
        // An empty field is sent as null: no window, main guesses one where it is used.
        ...(cw !== undefined && Number.isFinite(cw) ? { context_window: Math.round(cw), context_window_source: windowSource === 'provider' ? ('provider' as const) : ('user' as const) } : { context_window: null }),
        ...(acceptsImages !== null ? { accepts_images: acceptsImages } : knownImages !== undefined ? { accepts_images: knownImages } : {}),
        ...(clearKey ? { api_key: '' } : apiKey ? { api_key: apiKey } : {}),
        ...(makeDefault ? { make_default: true } : {}),
      });
      setApiKey('');
      setClearKey(false);
      setStatus({ tone: 'ok', text: t('profile.saved') });
      onSaved(view);
      // A saved profile keeps this form (no remount): check its connection now.
      if (profile) void runTest(false);
    } catch (err) {
      const field = err instanceof ApiError && (err.field === 'name' || err.field === 'base_url' || err.field === 'model') ? err.field : null;
      const text = err instanceof ApiError && err.code === 'conflict' && field === 'name' ? t('profile.errDuplicateName') : (err as Error).message;
      if (field) setFieldErrors({ [field]: text });
      else setStatus({ tone: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="profile-form" data-testid="profile-form">
      <label className="field">
        <span>{t('profile.name')}</span>
        <input
          aria-label={t('profile.name')}
          placeholder={t('profile.namePlaceholder')}
          value={name}
          aria-invalid={!!fieldErrors.name}
          onChange={(e) => {
            setName(e.target.value);
            setFieldErrors((f) => (f.name ? { ...f, name: undefined } : f));
          }}
        />
        {fieldErrors.name && <span className="field-error" role="alert">{fieldErrors.name}</span>}
      </label>
      <label className="field">
        <span>{t('profile.provider')}</span>
        <select
          aria-label={t('profile.provider')}
          value={provider}
          onChange={(e) => {
            const p = e.target.value as ModelProvider;
            setProvider(p);
            setModels(null);
            setTest(null);
            if (p === 'anthropic' && !baseUrl.trim()) setBaseUrl('https://api.anthropic.com/v1');
          }}
        >
          <option value="openai-compatible">{t('profile.providerOpenAI')}</option>
          <option value="anthropic">{t('profile.providerAnthropic')}</option>
        </select>
      </label>
      <label className="field">
        <span>{t('profile.baseUrl')}</span>
        <input
          aria-label={t('profile.baseUrl')}
          placeholder={t('profile.baseUrlPlaceholder')}
          value={baseUrl}
          aria-invalid={!!fieldErrors.base_url}
          onChange={(e) => {
            setBaseUrl(e.target.value);
            staleAfterEdit();
          }}
        />
        {fieldErrors.base_url && <span className="field-error" role="alert">{fieldErrors.base_url}</span>}
      </label>
      <label className="field">
        <span>
          {t('profile.apiKey')} {stored && <span className="badge set">{t('profile.keyStored')} {profile!.api_key.masked}</span>}
        </span>
        <input
          aria-label={t('profile.apiKey')}
          type="password"
          autoComplete="off"
          placeholder={stored ? t('profile.keyKeep') : t('profile.keyOptional')}
          value={apiKey}
          disabled={clearKey}
          onChange={(e) => {
            setApiKey(e.target.value);
            staleAfterEdit();
          }}
        />
        <SecretsFormNote />
      </label>
      {profile?.api_key.has_value && (
        <label className="check">
          <input type="checkbox" checked={clearKey} onChange={(e) => setClearKey(e.target.checked)} /> {t('profile.removeKey')}
        </label>
      )}
      {originChanged && (
        <div className="notice-block warning" data-testid="origin-change-warning">
          {t('profile.originChange')}
        </div>
      )}
      {clearText && (
        <div className="notice-block warning" data-testid="clear-text-warning">
          {t('profile.clearText')}
        </div>
      )}
      <div className="row">
        <button onClick={() => void runTest(true)} disabled={testing || !baseUrl.trim()}>
          {testing ? t('profile.testing') : t('profile.test')}
        </button>
        {test && (
          <span className={test.ok ? 'ok-text' : 'error-text'} data-testid="connection-result" aria-live="polite">
            {test.ok ? test.models.length ? t('profile.connected', { count: test.models.length }) : t('profile.connectedNone') : 'error' in test ? <ErrorText error={test.error} /> : <ModelErrorText code={test.code} detail={test.detail} />}
          </span>
        )}
      </div>
      {/* Main's English warning is a fact here: said in the window's words, and not twice (the form may say it already). */}
      {test?.ok && test.warning && !clearText && (
        <div className="notice-block warning" data-testid="connection-warning">
          {t('profile.clearText')}
        </div>
      )}
      <label className="field">
        <span>{t('profile.model')}</span>
        <input
          aria-label={t('profile.model')}
          placeholder={t('profile.modelPlaceholder')}
          value={model}
          aria-invalid={!!fieldErrors.model}
          onChange={(e) => {
            setModel(e.target.value);
            setFieldErrors((f) => (f.model ? { ...f, model: undefined } : f));
          }}
        />
        {fieldErrors.model && <span className="field-error" role="alert">{fieldErrors.model}</span>}
      </label>
      {models && models.length > 0 && (
        <label className="field">
          <span>{t('profile.modelPick')}</span>
          <select
            aria-label={t('profile.modelPick')}
            value={models.some((m) => m.id === model) ? model : ''}
            onChange={(e) => {
              setModel(e.target.value);
              if (!name.trim() || name === model) setName(e.target.value);
              setAcceptsImages(null);
              const w = models.find((m) => m.id === e.target.value)?.context_window ?? null;
              if (w !== null && windowSource !== 'user') useKnownWindow(w);
            }}
          >
            <option value="">{t('profile.modelPickPrompt')}</option>
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="field">
        <span>{t('profile.systemPrompt')}</span>
        <textarea aria-label={t('profile.systemPrompt')} placeholder={t('profile.systemPromptPlaceholder')} rows={3} value={systemPrompt} onChange={(e) => setSystemPrompt(e.target.value)} />
      </label>
      <label className="field narrow">
        <span>{t('profile.contextWindow')}</span>
        <input
          aria-label={t('profile.contextWindow')}
          inputMode="numeric"
          value={contextWindow}
          onChange={(e) => {
            setContextWindow(e.target.value.replace(/[^0-9]/g, ''));
            setWindowSource(e.target.value.trim() ? 'user' : 'default');
          }}
        />
        <span className="hint">{t('profile.contextWindowHint')}</span>
        <span className="hint" data-testid="context-window-source" data-source={windowSource}>
          {windowSource === 'provider' ? t('profile.windowFromProvider', { tokens: Number(contextWindow) }) : windowSource === 'user' ? t('profile.windowUser') : model.trim() ? guessText() : null}
          {knownWindow !== null && String(knownWindow) !== contextWindow && (
            <>
              {' '}
              <button className="link" onClick={() => useKnownWindow(knownWindow)}>
                {t('profile.windowUse', { tokens: knownWindow })}
              </button>
            </>
          )}
        </span>
      </label>
      <label className="check">
        <input type="checkbox" aria-label={t('profile.acceptsImages')} checked={acceptsImages ?? knownImages ?? profile?.accepts_images ?? false} onChange={(e) => setAcceptsImages(e.target.checked)} /> {t('profile.acceptsImages')}
      </label>
      {acceptsImages === null && knownImages === undefined && !profile && <span className="hint">{t('profile.acceptsImagesAuto')}</span>}
      {!isFirst && !profile?.is_default && (
        <label className="check">
          <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} /> {t('profile.makeDefault')}
        </label>
      )}
      <div className="row">
        <button className="primary" onClick={() => void save()} disabled={busy}>
          {t('profile.save')}
        </button>
        {status && (
          <span className={status.tone === 'ok' ? 'ok-text' : 'error-text'} role="status">
            {status.text}
          </span>
        )}
      </div>
    </div>
  );
}
