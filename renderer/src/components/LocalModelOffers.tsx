/**
 * First launch: model servers found running on this computer (Ollama, LM Studio), each offered
 * as a ready profile — pick one of its models and add it with one click. Shown when no profile
 * exists yet (Settings → Model, and the empty chat).
 */
import { useEffect, useState } from 'react';
import type { LocalModelOffer, ModelProfileView } from '../../../preload/contract/index.js';
import { call } from '../api';

/** User-visible strings (kept together for translation). */
export const LOCAL_OFFER_STRINGS = {
  found: (label: string, n: number) => `${label} is running on this computer with ${n === 1 ? '1 model' : `${n} models`}.`,
  model: (label: string) => `${label} model`,
  add: (label: string) => `Use ${label}`,
  added: 'Added. You can chat now.',
} as const;

/** The offers, fetched once; `onAdded` gets the new profile. Renders nothing when none answered. */
export function LocalModelOffers({ onAdded }: { onAdded: (p: ModelProfileView) => void }) {
  const [offers, setOffers] = useState<LocalModelOffer[]>([]);
  const [picked, setPicked] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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

  if (offers.length === 0) return null;
  const S = LOCAL_OFFER_STRINGS;
  return (
    <div className="local-offers" data-testid="local-offers">
      {offers.map((o) => {
        const model = picked[o.kind] ?? o.models[0]!.id;
        const info = o.models.find((m) => m.id === model);
        return (
          <div key={o.kind} className="local-offer" data-testid={`local-offer-${o.kind}`}>
            <span>{S.found(o.label, o.models.length)}</span>
            <select aria-label={S.model(o.label)} value={model} onChange={(e) => setPicked({ ...picked, [o.kind]: e.target.value })}>
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
                call('profiles.save', { name: `${o.label} · ${model}`, provider: 'openai-compatible', base_url: o.base_url, model, accepts_images: info?.accepts_images ?? false })
                  .then((p) => {
                    setOffers([]);
                    onAdded(p);
                  })
                  .catch((e: Error) => setError(e.message))
                  .finally(() => setBusy(false));
              }}
            >
              {S.add(o.label)}
            </button>
          </div>
        );
      })}
      {error && <span className="error-text">{error}</span>}
    </div>
  );
}
