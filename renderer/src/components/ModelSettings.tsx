/**
 * Settings → Model: the saved model profiles (each with its own API key), which one is the
 * default, and the form of the selected (or a new) profile. With no profile yet, local model
 * servers found on this computer are offered ready to use.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ModelProfileView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { LocalModelOffers, useLocalModelOffers } from './LocalModelOffers';
import { ProfileForm } from './ProfileForm';
import { ErrorText } from './ErrorText';
import { ConfirmAsk } from './ConfirmAsk';

/**
 * A profile's Remove button, which asks first in the app's own confirmation under the profile's
 * row (./ConfirmAsk.tsx; Cancel, Escape or a click elsewhere keeps the profile). The question
 * names the stored API key only when the profile has one (it goes with the profile).
 */
function RemoveProfile({ profile, onRemove }: { profile: ModelProfileView; onRemove: () => void }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button ref={button} className="danger" onClick={() => setAsking(true)}>
        {t('common.remove')}
      </button>
      {asking && (
        <ConfirmAsk
          testId="profile-remove-confirm"
          question={t(profile.api_key.has_value ? 'model.confirmRemove' : 'model.confirmRemoveNoKey', { name: profile.name })}
          confirmLabel={t('common.remove')}
          returnFocus={button}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            onRemove();
          }}
        />
      )}
    </>
  );
}

/** Settings → Model. */
export function ModelSettings() {
  const { t } = useTranslation();
  const setModelView = useApp((s) => s.setModelView);
  const loadProfiles = useApp((s) => s.loadProfiles);
  const [profiles, setProfiles] = useState<ModelProfileView[] | null>(null);
  const [selected, setSelected] = useState<string | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [justSaved, setJustSaved] = useState<string | null>(null);
  const localOffers = useLocalModelOffers();

  const refresh = useCallback(async (select?: string) => {
    try {
      const list = await call('profiles.list', {});
      setProfiles(list);
      setSelected((cur) => select ?? (cur && (cur === 'new' || list.some((p) => p.id === cur)) ? cur : (list.find((p) => p.is_default)?.id ?? 'new')));
      // The chat toolbar shows the default profile; the composer's picker lists the profiles.
      call('settings.getModel', {}).then(setModelView, () => undefined);
      loadProfiles().catch(() => undefined);
    } catch (e) {
      setError(e);
    }
  }, [setModelView, loadProfiles]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  if (!profiles) return <div className="panel"><h2>{t('model.title')}</h2></div>;
  const current = selected && selected !== 'new' ? (profiles.find((p) => p.id === selected) ?? null) : null;

  return (
    <div className="panel">
      <h2>{t('model.title')}</h2>
      <p className="muted">{t('model.intro')}</p>
      {profiles.length === 0 && (
        <LocalModelOffers
          found={localOffers}
          onAdded={(p) => {
            setJustSaved(p.id);
            void refresh(p.id);
          }}
        />
      )}
      {profiles.length > 0 && (
        <div className="profile-list" role="list" aria-label={t('model.profiles')}>
          {profiles.map((p) => (
            <div key={p.id} role="listitem" className={p.id === selected ? 'profile-item active' : 'profile-item'} data-testid={`profile-${p.name}`}>
              <button
                className="link profile-name"
                onClick={() => {
                  setJustSaved(null);
                  setSelected(p.id);
                }} aria-current={p.id === selected}>
                {p.name}
              </button>
              <span className="muted small profile-meta">
                {p.model} · {p.base_url}
              </span>
              {p.is_default && <span className="badge set">{t('model.default')}</span>}
              {p.key_in_clear && <span className="badge error">{t('model.keyInClear')}</span>}
              <span className="spacer" />
              {!p.is_default && (
                <button onClick={() => call('profiles.setDefault', { id: p.id }).then(() => refresh(), (e: unknown) => setError(e))}>{t('model.makeDefault')}</button>
              )}
              <RemoveProfile
                profile={p}
                onRemove={() => call('profiles.remove', { id: p.id }).then(() => refresh(selected === p.id ? undefined : selected ?? undefined), (e: unknown) => setError(e))}
              />
            </div>
          ))}
          <div>
            <button
              onClick={() => {
                setJustSaved(null);
                setSelected('new');
              }}
              disabled={selected === 'new'}
            >
              {t('model.newProfile')}
            </button>
          </div>
        </div>
      )}
      {error !== null && (
        <span className="error-text">
          <ErrorText error={error} />
        </span>
      )}
      <ProfileForm
        key={current?.id ?? 'new'}
        profile={current}
        isFirst={profiles.length === 0}
        justSaved={current !== null && current.id === justSaved}
        onSaved={(p) => {
          setJustSaved(p.id);
          void refresh(p.id);
        }}
      />
    </div>
  );
}
