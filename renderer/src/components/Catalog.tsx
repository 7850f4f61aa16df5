import { useEffect, useState } from 'react';
import type { BundlePreview, CatalogEntryView, CatalogOption } from '../../../preload/contract/index.js';
import { isValidServerName } from '../../../preload/contract/rules/index.js';
import { ApiError, call } from '../api';
import { formatDate, t as translate, useTranslation } from '../i18n';
import { useApp } from '../store';
import { answersToValues, CatalogFieldInputs, defaultAnswers, FixedValues, missingFields, type FieldAnswers } from './CatalogFields';
import { CatalogUpdates } from './CatalogUpdates';
import { BundleForm, BundleInstall, Installed } from './BundleInstall';
import { Fill } from '../i18n/Fill';
import { CatalogWhy } from './CatalogWhy';
import { DeclaredNeeds } from './sandbox/DeclaredNeeds';

/** "just now", "3 min ago", or a date. */
function age(ts: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ts) / 1000));
  if (s < 60) return translate('time.justNow');
  if (s < 3600) return translate('time.minAgo', { n: Math.floor(s / 60) });
  if (s < 86_400) return translate('time.hAgo', { n: Math.floor(s / 3600) });
  if (s < 2 * 86_400) return translate('time.yesterday');
  return formatDate(ts);
}

/** A server name from a registry name: its last part, cleaned. */
function suggestedName(registryName: string): string {
  const last = registryName.split('/').pop() ?? 'server';
  return (last.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'server').slice(0, 64);
}

/** A field path for people: `['packages', 0, 'transport']` → "packages › 1 › transport" (positions count from 1). */
function fieldPath(path: (string | number)[]): string {
  return path.map((seg) => (typeof seg === 'number' ? String(seg + 1) : seg)).join(' › ');
}

/** The install form of one entry: pick an option, name the server, answer its fields. */
function InstallForm({ entry, onDone }: { entry: CatalogEntryView; onDone: (server: string) => void }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const existing = useApp((s) => s.serverOrder);
  const options = entry.state.kind === 'valid' ? entry.state.options : [];
  const firstOk = options.find((o) => o.installable) ?? options[0];
  const [optionId, setOptionId] = useState(firstOk?.id ?? '');
  const option: CatalogOption | undefined = options.find((o) => o.id === optionId);
  const fields = option?.installable ? option.fields : [];
  const [answers, setAnswers] = useState<FieldAnswers>(() => defaultAnswers(fields));
  const [name, setName] = useState(() => {
    const base = suggestedName(entry.name);
    let n = base;
    for (let i = 2; existing.includes(n); i++) n = `${base}-${i}`;
    return n;
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [bundle, setBundle] = useState<BundlePreview | null>(null);
  const isBundle = option?.installable === true && option.kind === 'mcpb';

  /** An MCP Bundle package: main downloads it, checks its SHA-256 and contents, then asks its own questions. */
  const fetchBundle = async (): Promise<void> => {
    if (!option) return;
    setBusy(true);
    setErrors({});
    try {
      setBundle(await call('catalog.fetchBundle', { name: entry.name, version: entry.version, option: option.id }));
    } catch (err) {
      setErrors({ form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  const pick = (id: string): void => {
    setBundle(null);
    setOptionId(id);
    const o = options.find((x) => x.id === id);
    setAnswers(defaultAnswers(o?.installable ? o.fields : []));
    setErrors({});
  };

  const submit = async (): Promise<void> => {
    const e: Record<string, string> = {};
    if (!isValidServerName(name)) e.name = t('catalog.errServerName');
    for (const id of missingFields(fields, answers)) e[id] = t('catalog.errRequired');
    setErrors(e);
    if (Object.keys(e).length || !option?.installable) return;
    setBusy(true);
    try {
      const view = await call('catalog.install', { name: entry.name, version: entry.version, option: option.id, server_name: name, values: answersToValues(fields, answers) });
      upsert(view);
      onDone(view.name);
      useApp.getState().markCatalogInstalled(entry.name, view.name);
    } catch (err) {
      const field = err instanceof ApiError && err.field ? (err.field === 'name' || err.field === 'server_name' ? 'name' : err.field) : 'form';
      setErrors({ [fields.some((f) => f.id === field) || field === 'name' ? field : 'form']: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  if (bundle) return <BundleForm preview={bundle} onDone={onDone} onCancel={() => onDone('')} />;
  return (
    <form
      className="panel add-form"
      data-testid="catalog-install-form"
      onSubmit={(ev) => {
        ev.preventDefault();
        void submit();
      }}
    >
      <h3>
        {t('catalog.installTitle')} <span className="server-name">{entry.title ?? entry.name}</span>
      </h3>
      {options.length > 1 && (
        <label className="field">
          <span>{t('catalog.option')}</span>
          <select aria-label={t('catalog.option')} value={optionId} onChange={(e) => pick(e.target.value)}>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
                {o.installable ? '' : t('catalog.optionNotInstallable')}
              </option>
            ))}
          </select>
        </label>
      )}
      {option && (
        <div className="muted small" data-testid="catalog-option">
          <Fill k="catalog.source" slots={{ what: <span className="mono">{option.label}</span> }} />
        </div>
      )}
      {option && !option.installable && (
        <div className="banner warning small" role="alert">
          {t('catalog.notInstallable')}{t('common.colon')}<CatalogWhy reason={option.reason} />
        </div>
      )}
      {option?.installable && !isBundle && (
        <>
          <label className="field">
            <span>{t('catalog.serverName')}</span>
            <input aria-label={t('catalog.serverName')} className="mono" value={name} onChange={(e) => setName(e.target.value)} />
            {errors.name && (
              <span className="field-error" role="alert">
                {errors.name}
              </span>
            )}
          </label>
          {fields.length === 0 && <p className="muted">{t('catalog.noFields')}</p>}
          <CatalogFieldInputs fields={fields} answers={answers} onChange={setAnswers} errors={errors} />
          <FixedValues fixed={option.fixed} runtime={option.runtime} />
          <DeclaredNeeds needs={option.sandbox_needs} />
        </>
      )}
      {errors.form && (
        <div className="field-error" role="alert">
          {errors.form}
        </div>
      )}
      <div className="row">
        {isBundle ? (
          <button type="button" className="primary" disabled={busy} onClick={() => void fetchBundle()}>
            {busy ? t('catalog.bundleReading') : t('catalog.bundleDownload')}
          </button>
        ) : (
          <button type="submit" className="primary" disabled={busy || !option?.installable}>
            {busy ? t('catalog.installing') : t('catalog.install')}
          </button>
        )}
        <button type="button" onClick={() => onDone('')}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/** An entry's icon: fetched by main as a `data:` URL (the window loads no remote image); its initial until then. */
function EntryIcon({ url, title }: { url: string | null; title: string }) {
  const [data, setData] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (url) call('catalog.icon', { url }).then((r) => live && setData(r.data_url), () => undefined);
    return () => {
      live = false;
    };
  }, [url]);
  return data ? (
    <img className="catalog-icon" src={data} alt="" width={24} height={24} data-testid="catalog-icon" />
  ) : (
    <span className="catalog-icon" aria-hidden="true">
      {title.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** One result of the catalog. */
function EntryCard({ entry }: { entry: CatalogEntryView }) {
  const { t } = useTranslation();
  const [installing, setInstalling] = useState(false);
  const [note, setNote] = useState('');
  const title = entry.title ?? entry.name;
  return (
    <div className="server-card" data-testid="catalog-entry" data-name={entry.name}>
      <div className="row">
        <EntryIcon url={entry.icon} title={title} />
        <strong className="server-name">{title}</strong>
        {entry.title && entry.title !== entry.name && <span className="mono muted small">{entry.name}</span>}
        {entry.status !== 'active' && <span className="badge warning">{t(`catalog.${entry.status}`)}</span>}
        <span className="spacer" />
        <span className="muted small">{t('catalog.version', { version: entry.version })}</span>
      </div>
      <div className="small" lang="en">
        {entry.description}
      </div>
      <div className="server-meta small">
        {entry.transports.map((tr) => (
          <span key={tr} className="badge mono">
            {tr}
          </span>
        ))}
        {entry.repository && (
          <>
            {' '}
            {t('catalog.repository')}{t('common.colon')}<span className="mono">{entry.repository}</span>
          </>
        )}
      </div>
      {entry.status_message && (
        <div className="muted small" lang="en">
          {entry.status_message}
        </div>
      )}
      {entry.installed_as.length > 0 && <div className="small ok-text"><Fill k="catalog.installedAs" slots={{ names: <span className="mono">{entry.installed_as.join(', ')}</span> }} /></div>}
      {entry.state.kind === 'invalid' ? (
        <div className="banner warning small" data-testid="catalog-invalid" data-reason={entry.state.reason}>
          {entry.state.path.length ? (
            <Fill
              k="catalog.invalidAt"
              slots={{
                path: (
                  <span className="mono" lang="en">
                    {fieldPath(entry.state.path)}
                  </span>
                ),
              }}
            />
          ) : (
            t('catalog.invalid')
          )}
          <details className="catalog-invalid-details">
            <summary>{t('settings.details')}</summary>
            <span className="mono" lang="en">
              {entry.state.detail}
            </span>
          </details>
        </div>
      ) : (
        !installing && (
          <div className="row">
            {entry.installed_as.length > 0 ? (
              <button onClick={() => (setInstalling(true), setNote(''))}>{t('catalog.installAgain')}</button>
            ) : (
              <button className="primary" onClick={() => (setInstalling(true), setNote(''))}>
                {t('catalog.install')}
              </button>
            )}
          </div>
        )
      )}
      {note && (
        <div className="small ok-text" role="status">
          <Installed server={note} />
        </div>
      )}
      {installing && (
        <InstallForm
          entry={entry}
          onDone={(server) => {
            setInstalling(false);
            setNote(server);
          }}
        />
      )}
    </div>
  );
}

/** Settings → Catalog: the registry, search and results, install, updates, bundles. */
export function CatalogPanel() {
  const { t } = useTranslation();
  const registryUrl = useApp((s) => s.registryUrl);
  const results = useApp((s) => s.catalogResults);
  const includeDeprecated = useApp((s) => s.includeDeprecated);
  const { loadCatalogSettings, saveRegistryUrl, searchCatalog, loadMoreCatalog, setIncludeDeprecated } = useApp.getState();
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState('');
  const [query, setQuery] = useState(() => {
    const r = useApp.getState().catalogResults;
    return r.kind === 'shown' || r.kind === 'loading' ? r.query : '';
  });

  useEffect(() => {
    // The stored address fills the field only if the user has not typed one meanwhile:
    // a slow load must not wipe what they typed (the Use button would turn off under them).
    void loadCatalogSettings().then(() => setUrl((typed) => typed || (useApp.getState().registryUrl ?? '')));
    if (useApp.getState().catalogResults.kind === 'idle') void searchCatalog('');
  }, [loadCatalogSettings, searchCatalog]);

  const saveUrl = async (): Promise<void> => {
    setUrlError('');
    try {
      await saveRegistryUrl(url.trim());
      await searchCatalog(query);
    } catch (err) {
      setUrlError((err as Error).message);
    }
  };

  return (
    <div className="panel" data-testid="catalog">
      <div className="row">
        <h2>{t('catalog.title')}</h2>
      </div>
      <p className="muted">{t('catalog.intro')}</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void saveUrl();
        }}
      >
        <label className="field grow">
          <span>{t('catalog.registryLabel')}</span>
          <input aria-label={t('catalog.registryLabel')} className="mono" value={url} onChange={(e) => setUrl(e.target.value)} />
          <span className="hint">{t('catalog.registryHint')}</span>
          {urlError && (
            <span className="field-error" role="alert">
              {urlError}
            </span>
          )}
        </label>
        <button type="submit" disabled={!url.trim() || url.trim() === registryUrl}>
          {t('catalog.registrySave')}
        </button>
      </form>
      <CatalogUpdates />
      <section className="panel" aria-labelledby="catalog-browse-title" data-testid="catalog-browse">
        <h3 id="catalog-browse-title">{t('catalog.browseTitle')}</h3>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void searchCatalog(query.trim());
          }}
        >
          <input aria-label={t('catalog.searchLabel')} placeholder={t('catalog.searchPlaceholder')} value={query} onChange={(e) => setQuery(e.target.value)} />
          <button type="submit" className="primary">
            {t('catalog.search')}
          </button>
          <label className="check">
            <input type="checkbox" checked={includeDeprecated} onChange={(e) => (setIncludeDeprecated(e.target.checked), void searchCatalog(query.trim()))} /> {t('catalog.showDeprecated')}
          </label>
        </form>
        {results.kind === 'loading' && <p className="muted">{t('catalog.loading')}</p>}
        {results.kind === 'failed' && (
          <div className="banner warning" role="alert">
            {results.message}
          </div>
        )}
        {results.kind === 'shown' && (
          <>
            {results.page.source.kind === 'registry' && (
              <p className="muted small" data-testid="catalog-source">
                <Fill k="catalog.live" slots={{ url: <span className="mono">{results.page.registry_url}</span> }} />
              </p>
            )}
            {results.page.source.kind === 'cache' && (
              <div className="banner warning banner-prose" role="status" data-testid="catalog-offline">
                {t('catalog.offline', { age: age(results.page.fetched_at ?? Date.now()) })}{' '}
                <span className="muted">
                  {t('catalog.reason')}{t('common.colon')}<CatalogWhy reason={results.page.source.reason} />
                </span>
              </div>
            )}
            {results.page.source.kind === 'none' && (
              <div className="banner warning banner-prose" role="alert" data-testid="catalog-offline">
                {t('catalog.nothing')}{' '}
                <span className="muted">
                  {t('catalog.reason')}{t('common.colon')}<CatalogWhy reason={results.page.source.reason} />
                </span>
              </div>
            )}
            {results.page.entries.length === 0 && results.page.source.kind !== 'none' && <p className="muted">{t('catalog.noResults')}</p>}
            {results.page.skipped > 0 && <p className="muted small">{t('catalog.skipped', { count: results.page.skipped })}</p>}
            {results.page.entries.map((e) => (
              <EntryCard key={`${e.name}@${e.version}`} entry={e} />
            ))}
            {results.page.next_cursor && (
              <button disabled={results.loadingMore} onClick={() => void loadMoreCatalog()}>
                {results.loadingMore ? t('common.loading') : t('catalog.loadMore')}
              </button>
            )}
          </>
        )}
      </section>
      <BundleInstall />
    </div>
  );
}
