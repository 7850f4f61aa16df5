import { useState } from 'react';
import type { ServerPatch, ServerView } from '../../../preload/contract/index.js';
import { isValidServerName } from '../../../preload/contract/rules/index.js';
import { ApiError, call } from '../api';
import { joinCommandLine } from '../commandLine';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { TRANSPORT_UI, transportUi, type EditDraft } from '../transports';
import { duplicateRows } from './env-rows';
import { SandboxFields, useSandboxForm } from './sandbox/SandboxFields';
import { NewValueRow, StoredValueRow } from './ValueRows';
import { SecretsFormNote } from './SecretsFormNote';
import { useFocusFirstProblem } from './first-problem';
import { ErrorText } from './ErrorText';

/** The remote transports a remote server can be switched between. */
const REMOTE_TYPES = ['http', 'sse'] as const;
type RemoteType = (typeof REMOTE_TYPES)[number];

/**
 * Edit a server with PATCH semantics: secret inputs start empty and list only the stored names
 * with a "set" badge; only what the user changed is sent (absent → keep, value → replace,
 * "" → delete). The edit is saved only if the server restarts successfully with it. A new name
 * is a rename (`servers.rename`, after the other changes are saved), which moves everything kept
 * under the name (docs/ARCHITECTURE.md "Renaming a server"); a remote server can switch between
 * Streamable HTTP and SSE. New value rows that repeat a name are refused under the row, as in
 * the Add form.
 */
export function EditServerForm({ server, onDone }: { server: ServerView; onDone: () => void }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const renameServer = useApp((s) => s.renameServer);
  const ui = transportUi(server.type);
  const values = ui.values;
  const stored = ui.stored(server);
  const [draft, setDraft] = useState<EditDraft>(() => {
    const initialCommand = joinCommandLine(server.command);
    return {
      command: initialCommand,
      initialCommand,
      marked: [],
      url: server.url ?? '',
      urlEdits: { replace: {}, removed: {} },
      auth: { kind: server.auth.kind, token: '', clientId: server.auth.client_id ?? '', clientSecret: '', scope: server.auth.scope ?? '' },
    };
  });
  const set = (patch: Partial<EditDraft>) => setDraft({ ...draft, ...patch });
  const [timeout, setTimeoutS] = useState(String(server.timeout_seconds));
  const [replace, setReplace] = useState<Record<string, string>>({});
  const [removed, setRemoved] = useState<Record<string, boolean>>({});
  const [added, setAdded] = useState<{ key: string; value: string }[]>([]);
  const sandbox = useSandboxForm(server.sandbox_settings);
  // The form's own refusal, or what main's failed with (a failed trial start shows the server's output).
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState(server.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [type, setType] = useState(server.type);
  const order = useApp((s) => s.serverOrder);
  const others = order.filter((n) => n !== server.name);
  // New rows that repeat a stored name (one not being removed) or an earlier new row.
  const kept = Object.keys(stored).filter((n) => !removed[n]);
  const dupes = duplicateRows([...kept, ...added.map((r) => r.key)], values.field === 'headers');
  const duplicates = new Set([...dupes].filter((i) => i >= kept.length).map((i) => i - kept.length));
  const [formRef, focusFirstProblem] = useFocusFirstProblem<HTMLFormElement>();

  /**
   * The new name's error in words, or null when it may be asked for. Main checks it again, with
   * the tool namespaces (`my.fs` next to `my_fs`) and entries the window does not list.
   */
  const checkName = (n: string): string | null => {
    if (!n) return t('addServer.errNameRequired');
    if (n === server.name) return null;
    if (!isValidServerName(n)) return t('addServer.errNameChars');
    return others.some((o) => o.toLowerCase() === n.toLowerCase()) ? t('editServer.errNameTaken', { name: n }) : null;
  };

  const buildPatch = (): ServerPatch => {
    const patch: ServerPatch = ui.targetPatch(server, draft);
    if (type !== server.type && type !== 'local') patch.type = type;
    if (server.type === 'local') {
      const sb = sandbox.patch();
      if (sb) patch.sandbox = sb;
    }
    const secs = Number(timeout);
    if (!Number.isInteger(secs) || secs < 1 || secs > 3600) throw new Error(t('addServer.errTimeout'));
    if (secs !== server.timeout_seconds) patch.timeout_seconds = secs;
    const secrets: Record<string, string> = {};
    for (const name of Object.keys(stored)) {
      if (removed[name]) secrets[name] = '';
      else if (replace[name]) secrets[name] = replace[name]!;
    }
    for (const row of added) {
      const k = row.key.trim();
      if (!k) continue;
      if (!values.nameRule.test(k)) throw new Error(values.badName(k));
      if (row.value === '') throw new Error(t('editServer.errValue', { name: k }));
      secrets[k] = row.value;
    }
    if (Object.keys(secrets).length) patch[values.field] = secrets;
    Object.assign(patch, ui.authPatch(server, draft));
    return patch;
  };

  const save = async () => {
    setError(null);
    const newName = name.trim();
    const badName = checkName(newName);
    setNameError(badName);
    // A repeated name or a bad new name is said beside its field only; the focus goes there.
    if (badName || duplicates.size) {
      focusFirstProblem();
      return;
    }
    let patch: ServerPatch;
    try {
      patch = buildPatch();
    } catch (err) {
      setError((err as Error).message);
      focusFirstProblem();
      return;
    }
    if (Object.keys(patch).length === 0 && newName === server.name) {
      onDone();
      return;
    }
    setBusy(true);
    try {
      // The other changes first, under the name they were made for; then the rename, whose
      // refusal (a name main knows is taken) is shown beside the name field.
      if (Object.keys(patch).length) upsert(await call('servers.update', { name: server.name, patch }));
      if (newName !== server.name) {
        try {
          // The card follows the `servers.renamed` event; the reply does the same if it comes first.
          renameServer(server.name, await call('servers.rename', { name: server.name, new_name: newName }));
        } catch (err) {
          if (err instanceof ApiError && err.code === 'conflict' && err.field === 'name') setNameError(t('editServer.errNameTaken', { name: newName }));
          else if (err instanceof ApiError && err.code === 'invalid_input') setNameError(t('addServer.errNameChars'));
          // Not renamed (a record could not be moved; nothing changed): its facts, worded.
          else setError(err);
          focusFirstProblem();
          return;
        }
      }
      onDone();
    } catch (err) {
      setError(sandbox.takeError(err) ? null : err);
      focusFirstProblem();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      className="panel add-form"
      aria-label={t('editServer.form', { name: server.name })}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h3>{t('editServer.title', { name: server.name })}</h3>
      <SecretsFormNote />
      <label className="field">
        <span>{t('editServer.name')}</span>
        <input
          aria-label={t('editServer.nameLabel')}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
          }}
          aria-invalid={!!nameError}
        />
        {name.trim() !== server.name && <span className="hint">{t('editServer.nameHint')}</span>}
        {nameError && (
          <span className="field-error" role="alert" data-testid="name-error">
            {nameError}
          </span>
        )}
      </label>
      {server.type !== 'local' && (
        <label className="field">
          <span>{t('editServer.transport')}</span>
          <select aria-label={t('editServer.transportLabel')} value={type} onChange={(e) => setType(e.target.value as RemoteType)}>
            {REMOTE_TYPES.map((r) => (
              <option key={r} value={r}>
                {TRANSPORT_UI[r].option()}
              </option>
            ))}
          </select>
          {type !== server.type && <span className="hint">{t('editServer.transportHint')}</span>}
        </label>
      )}
      <ui.EditTarget server={server} draft={draft} set={set} />
      <div className="field">
        <span>{values.editTitle()}</span>
        {Object.entries(stored).map(([name, v]) => (
          <StoredValueRow
            key={name}
            name={name}
            hasValue={v.has_value}
            value={replace[name] ?? ''}
            removed={!!removed[name]}
            onValue={(value) => setReplace({ ...replace, [name]: value })}
            onRemoved={(r) => setRemoved({ ...removed, [name]: r })}
          />
        ))}
        {added.map((r, i) => (
          <NewValueRow
            key={`new-${i}`}
            name={r.key}
            value={r.value}
            nameLabel={values.newNameLabel(i + 1)}
            valueLabel={values.newValueLabel(i + 1)}
            removeLabel={t('addServer.removeRow', { n: i + 1 })}
            namePlaceholder={values.placeholder()}
            valuePlaceholder={t('addServer.valueSecret')}
            duplicate={duplicates.has(i) ? t('addServer.errDuplicateName', { name: r.key.trim() }) : null}
            onName={(key) => setAdded(added.map((x, j) => (j === i ? { ...x, key } : x)))}
            onValue={(value) => setAdded(added.map((x, j) => (j === i ? { ...x, value } : x)))}
            onRemove={() => setAdded(added.filter((_, j) => j !== i))}
          />
        ))}
        <button type="button" onClick={() => setAdded([...added, { key: '', value: '' }])}>
          {values.addLabel()}
        </button>
      </div>
      <ui.EditAuth server={server} draft={draft} set={set} />
      {server.type === 'local' && <SandboxFields form={sandbox} />}
      <label className="field narrow">
        <span>{t('addServer.timeout')}</span>
        <input aria-label={t('editServer.timeoutLabel')} inputMode="numeric" value={timeout} onChange={(e) => setTimeoutS(e.target.value)} />
      </label>
      {error !== null && (
        <div className="field-error" role="alert" data-testid="edit-error">
          <ErrorText error={error} />
        </div>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('editServer.restarting') : t('editServer.saveRestart')}
        </button>
        <button type="button" onClick={onDone} disabled={busy}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
