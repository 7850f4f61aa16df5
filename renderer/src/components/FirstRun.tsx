/**
 * The first-run guide (docs/ARCHITECTURE.md "First run"), shown in the empty chat of a fresh
 * state: 1. set up a model (the local Ollama / LM Studio offers, or Settings → Model), 2. add a
 * first server (a folder the model may read, in one step, or a few catalog suggestions), 3. an
 * example prompt that fills the composer. Each step shows how it stands — to do, under way, done,
 * or failed (the first server is done only once it is ready); the guide can be skipped and goes
 * away with the first conversation (store/onboarding.ts).
 */
import type { ServerView } from '../../../preload/contract/index.js';
import { Trans, useTranslation } from '../i18n';
import { useApp } from '../store';
import { FolderStep } from './FirstRunFolder';
import { LocalModelOffers, SetUpModel, useLocalModelOffers } from './LocalModelOffers';

/** Where Settings opens from the guide. */
export type GuideTarget = 'model' | 'servers' | 'catalog';

/** The example prompts of step 3 (i18n keys). */
const EXAMPLES = ['firstRun.example1', 'firstRun.example2', 'firstRun.example3'] as const;

/** How a step stands: to do, under way (a server starting), done, or failed (it did not start). */
export type StepState = 'todo' | 'busy' | 'done' | 'failed';

/** How the first server's step stands: done only once the server is ready; to do again while it is turned off. */
export function serverStepState(server: ServerView | undefined): StepState {
  const kind = server?.state.kind;
  return kind === 'ready' ? 'done' : kind === 'starting' ? 'busy' : kind === 'error' || kind === 'needs_auth' ? 'failed' : 'todo';
}

/** One numbered step: its number (a check mark when done, "!" when failed), title and body. */
function Step({ n, state, title, testId, children }: { n: number; state: StepState; title: string; testId: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const done = state === 'done';
  return (
    <li className={`guide-step ${state}`} data-testid={testId} data-done={done} data-state={state}>
      <span className="guide-num" aria-hidden="true">
        {done ? '✓' : state === 'failed' ? '!' : n}
      </span>
      <div className="guide-body">
        <h3>
          {title}
          {state !== 'todo' && <span className="sr-only"> {t(`firstRun.step_${state}`)}</span>}
        </h3>
        {children}
      </div>
    </li>
  );
}

/**
 * A few kinds of server to look for in the catalog. Fixed here (no registry request until the
 * user asks): each opens Settings → Catalog searching for it, where the install form takes over.
 */
const SUGGESTIONS = [
  { key: 'memory', query: 'memory' },
  { key: 'fetch', query: 'fetch' },
  { key: 'github', query: 'github' },
] as const;

/** The catalog suggestions of step 2. */
function CatalogSuggestions({ onOpen }: { onOpen: (target: GuideTarget) => void }) {
  const { t } = useTranslation();
  return (
    <ul className="guide-suggestions" aria-label={t('firstRun.suggestions')} data-testid="first-run-suggestions">
      {SUGGESTIONS.map((s) => (
        <li key={s.key}>
          <span className="guide-suggestion-text">
            <strong>{t(`firstRun.suggest.${s.key}.title`)}</strong>
            <span className="muted small">{t(`firstRun.suggest.${s.key}.text`)}</span>
          </span>
          <button
            aria-label={t('firstRun.findEntry', { name: t(`firstRun.suggest.${s.key}.title`) })}
            title={t('firstRun.findEntry', { name: t(`firstRun.suggest.${s.key}.title`) })}
            onClick={() => {
              void useApp.getState().searchCatalog(s.query);
              onOpen('catalog');
            }}
          >
            {t('firstRun.find')}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The guide. `onOpen` switches to a Settings section. */
export function FirstRun({ onOpen }: { onOpen: (target: GuideTarget) => void }) {
  const { t } = useTranslation();
  const profile = useApp((s) => s.profiles.find((p) => p.is_default && p.configured) ?? s.profiles.find((p) => p.configured) ?? null);
  const modelName = useApp((s) => (s.model?.configured ? s.model.model : null));
  const modelReady = profile !== null || modelName !== null;
  const firstServer = useApp((s) => (s.serverOrder[0] ? s.servers[s.serverOrder[0]] : undefined));
  const finish = useApp((s) => s.finishFirstRun);
  const fill = useApp((s) => s.fillComposer);
  const local = useLocalModelOffers();
  return (
    <section className="guide" aria-labelledby="first-run-title" data-testid="first-run">
      <div className="guide-head">
        <div>
          <h2 id="first-run-title">{t('firstRun.title')}</h2>
          <p className="muted">{t('firstRun.intro')}</p>
        </div>
        <button className="link" onClick={finish}>
          {t('firstRun.skip')}
        </button>
      </div>
      <ol className="guide-steps">
        <Step n={1} state={modelReady ? 'done' : 'todo'} title={t('firstRun.modelTitle')} testId="first-run-model">
          {modelReady ? (
            <p className="muted">{t('firstRun.modelDone', { name: profile?.name ?? modelName ?? '' })}</p>
          ) : (
            <>
              <SetUpModel offers={local.offers.length} onOpenModel={() => onOpen('model')} />
              <LocalModelOffers found={local} onAdded={() => void useApp.getState().loadSettings()} />
            </>
          )}
        </Step>
        <Step n={2} state={serverStepState(firstServer)} title={t('firstRun.serverTitle')} testId="first-run-server">
          <FolderStep onOpenServers={() => onOpen('servers')} />
          {!firstServer && (
            <>
              <CatalogSuggestions onOpen={onOpen} />
              <p className="muted small">
                <Trans
                  i18nKey="firstRun.serverMore"
                  components={{ catalog: <button className="link" onClick={() => onOpen('catalog')} />, manual: <button className="link" onClick={() => onOpen('servers')} /> }}
                />
              </p>
            </>
          )}
        </Step>
        <Step n={3} state="todo" title={t('firstRun.promptsTitle')} testId="first-run-prompts">
          <p className="muted">{t('firstRun.promptsIntro')}</p>
          <div className="guide-examples">
            {EXAMPLES.map((k) => (
              <button key={k} className="guide-example" onClick={() => fill(t(k))}>
                {t(k)}
              </button>
            ))}
          </div>
        </Step>
      </ol>
    </section>
  );
}
