/**
 * First launch: model servers found running on this computer (Ollama, LM Studio), each offered
 * as a ready profile — pick one of its models and add it with one click. Shown when no profile
 * exists yet (Settings → Model, the empty chat and the first-run guide, whose words around the
 * offers depend on whether there are any: `useLocalModelOffers`).
 */
import { useEffect, useState } from 'react';
import type { LocalModelOffer, ModelProfileView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { Trans, useTranslation } from '../i18n';
import { ErrorText } from './ErrorText';

/**
 * What to do for a model, in words that fit what is offered: Settings → Model, or — when model
 * servers run on this computer (`offers` of them) — the one-click offers below, or Settings → Model.
 */
export function SetUpModel({ offers, onOpenModel }: { offers: number; onOpenModel: () => void }) {
  const action = <button className="link" onClick={onOpenModel} />;
  return (
    <p className="muted" data-testid="set-up-model">
      {offers > 0 ? <Trans i18nKey="chat.setupModelLocal" count={offers} components={{ action }} /> : <Trans i18nKey="chat.setupModel" components={{ action }} />}
    </p>
  );
}

/** The local model servers found on this computer, asked once per mount (none until they answer); `clear` drops them once one is used. */
export function useLocalModelOffers(): { offers: LocalModelOffer[]; clear: () => void } {
  const [offers, setOffers] = useState<LocalModelOffer[]>([]);
  useEffect(() => {
    let live = true;
    call('profiles.detectLocal', {}).then(
      (o) => live && setOffers(o),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return { offers, clear: () => setOffers([]) };
}

/**
 * The offers (from `useLocalModelOffers`); `onAdded` gets the new profile, after which the offers
 * are cleared. Renders nothing when none answered.
 */
export function LocalModelOffers({ found, onAdded }: { found: ReturnType<typeof useLocalModelOffers>; onAdded: (p: ModelProfileView) => void }) {
  const { t } = useTranslation();
  const { offers } = found;
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  if (offers.length === 0) return null;
  return (
    <div className="local-offers" data-testid="local-offers">
      {offers.map((o) => {
        const model = picked[o.kind] ?? o.models[0]!.id;
        const info = o.models.find((m) => m.id === model);
        return (
          <div key={o.kind} className="local-offer" data-testid={`local-offer-${o.kind}`}>
            <span>{t('localOffers.found', { label: o.label, count: o.models.length })}</span>
            <select aria-label={t('localOffers.model', { label: o.label })} value={model} onChange={(e) => setPicked({ ...picked, [o.kind]: e.target.value })}>
              {o.models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                </option>
              ))}
            </select>
            <button
              className="primary"
              disabled={busy}
              onClick={() => {
                setBusy(true);
                setError(null);
                call('profiles.save', { name: `${o.label} · ${model}`, provider: 'openai-compatible', base_url: o.base_url, model, accepts_images: info?.accepts_images ?? false, ...(info?.context_window ? { context_window: info.context_window, context_window_source: 'provider' as const } : {}) })
                  .then((p) => {
                    found.clear();
                    onAdded(p);
                  })
                  .catch((e: unknown) => setError(e))
                  .finally(() => setBusy(false));
              }}
            >
              {t('localOffers.add', { label: o.label })}
            </button>
          </div>
        );
      })}
      {error !== null && (
        <span className="error-text">
          <ErrorText error={error} />
        </span>
      )}
    </div>
  );
}
