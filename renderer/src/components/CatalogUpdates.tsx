import { useState } from 'react';
import type { CatalogChange, CatalogDiffItem } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useTranslation } from '../i18n';
import { Fill } from '../i18n/Fill';
import { useApp } from '../store';
import { CatalogWhy } from './CatalogWhy';
import { answersToValues, CatalogFieldInputs, defaultAnswers, missingFields, type FieldAnswers } from './CatalogFields';

/** One change an update makes (names only, never a value). */
function Change({ c }: { c: CatalogChange }) {
  const { t } = useTranslation();
  if (c.kind === 'env' || c.kind === 'headers') {
    const what = c.kind === 'env' ? t('catalog.envVars') : t('catalog.headers');
    return (
      <>
        {c.added.length > 0 && (
          <li>
            {t('catalog.changeAdded', { what })} <span className="mono">{c.added.join(', ')}</span>
          </li>
        )}
        {c.removed.length > 0 && (
          <li>
            {t('catalog.changeRemoved', { what })} <span className="mono">{c.removed.join(', ')}</span>
          </li>
        )}
      </>
    );
  }
  if (c.kind === 'type') return <li>{t('catalog.changeType', { before: c.before, after: c.after })}</li>;
  if (c.kind === 'sandbox')
    return (
      <li data-testid="change-sandbox">
        {t('sandbox.changeSandbox')}{t('common.colon')}
        <span className="mono" lang="en">
          {[...c.read.map((x) => `${t('sandbox.extraRead')} ${x}`), ...c.write.map((x) => `${t('sandbox.extraWrite')} ${x}`), ...c.hosts.map((x) => `${t('sandbox.hosts')} ${x}`)].join('; ')}
        </span>
      </li>
    );
  return (
    <li>
      {c.kind === 'command' ? t('catalog.changeCommand') : t('catalog.changeUrl')}{t('common.colon')}<span className="mono">{c.before}</span> → <span className="mono">{c.after}</span>
    </li>
  );
}
/** One installed catalog server: its registry status, and the update when there is one. */
function DiffRow({ item, onUpdated }: { item: CatalogDiffItem; onUpdated: () => void }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const needs = item.update.kind === 'available' ? item.update.needs : [];
  const [answers, setAnswers] = useState<FieldAnswers>(() => defaultAnswers(needs));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ server: string; version: string } | null>(null);
  const update = async (): Promise<void> => {
    const e: Record<string, string> = {};
    for (const id of missingFields(needs, answers)) e[id] = t('catalog.errRequired');
    setErrors(e);
    if (Object.keys(e).length || item.update.kind !== 'available') return;
    setBusy(true);
    try {
      const view = await call('catalog.update', { server_name: item.server, values: answersToValues(needs, answers) });
      upsert(view);
      setNote({ server: item.server, version: item.update.version });
      onUpdated();
    } catch (err) {
      setErrors({ form: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="server-card" data-testid="catalog-diff-item" data-server={item.server}>
      <div className="row">
        <strong className="server-name">{item.server}</strong>
        <span className="mono muted small">
          {item.registry_name} {item.installed_version}
        </span>
        {item.status === 'deprecated' || item.status === 'deleted' ? <span className="badge warning">{t(`catalog.${item.status}`)}</span> : null}
        {item.status === 'unknown' && <span className="badge warning">{t('catalog.statusUnknown')}</span>}
        <span className="spacer" />
        {item.update.kind === 'none' && item.status !== 'unknown' && <span className="muted small">{t('catalog.upToDate')}</span>}
      </div>
      {item.problem && (
        <div className="muted small">
          <CatalogWhy reason={item.problem} />
        </div>
      )}
      {item.status_message && <div className="muted small">{item.status_message}</div>}
      {item.update.kind === 'blocked' && (
        <div className="banner warning small">
          {t('catalog.updateBlocked', { version: item.update.version })}{' '}
          <CatalogWhy reason={item.update.reason} />
        </div>
      )}
      {item.update.kind === 'available' && (
        <>
          <div className="small">
            <strong>{t('catalog.newVersion', { version: item.update.version })}</strong> — {t('catalog.changes')}{t('common.colon')}
          </div>
          {item.update.changes.length === 0 ? (
            <div className="muted small">{t('catalog.noChanges')}</div>
          ) : (
            <ul className="small" data-testid="catalog-changes">
              {item.update.changes.map((c, i) => (
                <Change key={i} c={c} />
              ))}
            </ul>
          )}
          {needs.length > 0 && (
            <>
              <div className="small">{t('catalog.needs')}</div>
              <CatalogFieldInputs fields={needs} answers={answers} onChange={setAnswers} errors={errors} />
            </>
          )}
          {errors.form && (
            <div className="field-error" role="alert">
              {errors.form}
            </div>
          )}
          <div className="row">
            <button className="primary" disabled={busy} onClick={() => void update()}>
              {busy ? t('catalog.updating') : t('catalog.updateTo', { version: item.update.version })}
            </button>
          </div>
        </>
      )}
      {note && (
        <div className="small ok-text" role="status">
          <Fill k="catalog.updated" slots={{ name: <span className="mono">{note.server}</span>, version: <span className="mono">{note.version}</span> }} />
        </div>
      )}
    </div>
  );
}

/** The catalog diff: installed catalog servers against the registry. */
export function CatalogUpdates() {
  const { t } = useTranslation();
  const diff = useApp((s) => s.catalogDiff);
  const load = useApp((s) => s.loadCatalogDiff);
  return (
    <div className="panel" data-testid="catalog-updates">
      <div className="row">
        <h3>{t('catalog.updatesTitle')}</h3>
        <span className="spacer" />
        <button disabled={diff.kind === 'loading'} onClick={() => void load()}>
          {diff.kind === 'loading' ? t('catalog.checking') : t('catalog.checkUpdates')}
        </button>
      </div>
      {diff.kind === 'failed' && (
        <div className="banner warning" role="alert">
          {diff.message}
        </div>
      )}
      {/* Before a check the section says what it is for (the window learns which servers came from the catalog only by checking). */}
      {diff.kind === 'idle' && (
        <p className="muted small" data-testid="catalog-updates-idle">
          {t('catalog.updatesIdle')}
        </p>
      )}
      {diff.kind === 'shown' && diff.items.length === 0 && <p className="muted">{t('catalog.noInstalls')}</p>}
      {diff.kind === 'shown' && diff.items.map((item) => <DiffRow key={`${item.server}@${item.installed_version}`} item={item} onUpdated={() => void load()} />)}
    </div>
  );
}
