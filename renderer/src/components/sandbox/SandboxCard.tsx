/**
 * A local server's sandbox on its card (docs/ARCHITECTURE.md "Sandbox"): a badge saying whether
 * it runs sandboxed (and, when it cannot, why in words), a collapsible "What it may do" with its
 * policy, and what the sandbox blocked and no grant has allowed since, each with "Allow for this
 * server" (asked once more, then a `servers.update` PATCH of its sandbox lists; main restarts the
 * server with it).
 */
import { useState, type ReactNode } from 'react';
import type { SandboxDenial, SandboxPolicyView, ServerView } from '../../../../preload/contract/index.js';
import { call } from '../../api';
import { useApp } from '../../store';
import { useTranslation } from '../../i18n';
import { allowPatchOf } from './sandbox-form';
import { SandboxBadge } from './SandboxBadge';
import './sandbox.css';
import { ErrorText } from '../ErrorText';

/** One row of the policy: its label and its paths or hosts. */
function PolicyRow({ label, items, none, testId }: { label: string; items: string[]; none: string; testId: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        {items.length === 0 ? (
          <span className="muted">{none}</span>
        ) : (
          items.map((p) => (
            <span key={p} className="mono sandbox-item">
              {p}
            </span>
          ))
        )}
      </dd>
    </>
  );
}

/** The sandboxed server's line: its badge, opening "What it may do" (the policy main computed at its last start). */
function SandboxPolicy({ policy, badge }: { policy: SandboxPolicyView | null; badge: ReactNode }) {
  const { t } = useTranslation();
  const none = t('sandbox.policyNone');
  return (
    <details className="tool-item sandbox-policy" data-testid="sandbox-policy">
      <summary>
        {badge} <span className="sandbox-policy-label">{t('sandbox.policy')}</span>
      </summary>
      {policy === null ? (
        <div className="muted small">{t('sandbox.policyPending')}</div>
      ) : (
        <dl>
          <PolicyRow label={t('sandbox.policyRead')} items={policy.read} none={none} testId="sandbox-policy-read" />
          <PolicyRow label={t('sandbox.policyWrite')} items={policy.write} none={none} testId="sandbox-policy-write" />
          <PolicyRow label={t('sandbox.policyDeny')} items={policy.deny} none={none} testId="sandbox-policy-deny" />
          {policy.refused.length > 0 && <PolicyRow label={t('sandbox.policyRefused')} items={policy.refused} none={none} testId="sandbox-policy-refused" />}
          <PolicyRow label={t('sandbox.policyScratch')} items={[policy.scratch]} none={none} testId="sandbox-policy-scratch" />
          <PolicyRow label={t('sandbox.policyHosts')} items={policy.hosts} none={t('sandbox.policyNoHosts')} testId="sandbox-policy-hosts" />
          {policy.fetch_hosts.length > 0 && <PolicyRow label={t('sandbox.policyFetchHosts')} items={policy.fetch_hosts} none={none} testId="sandbox-policy-fetch" />}
        </dl>
      )}
    </details>
  );
}

/**
 * What the sandbox blocked, each with "Allow for this server" — which first says exactly what it
 * grants (read, write or connect; that path or host) and asks once more — or, for a path the
 * sandbox never shows, that no setting can allow it.
 */
function SandboxDenials({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const [busy, setBusy] = useState<string | null>(null);
  const [asking, setAsking] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const allow = async (d: SandboxDenial) => {
    setError(null);
    setBusy(`${d.kind} ${d.target}`);
    try {
      upsert(await call('servers.update', { name: server.name, patch: { sandbox: allowPatchOf(server.sandbox_settings, d) } }));
      setAsking(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const text = (d: SandboxDenial) => t(d.kind === 'read' ? 'sandbox.deniedRead' : d.kind === 'write' ? 'sandbox.deniedWrite' : 'sandbox.deniedConnect', { target: d.target });
  const confirm = (d: SandboxDenial) => t(d.kind === 'read' ? 'sandbox.confirmRead' : d.kind === 'write' ? 'sandbox.confirmWrite' : 'sandbox.confirmConnect', { target: d.target, name: server.name });
  const grant = (d: SandboxDenial) => t(d.kind === 'read' ? 'sandbox.grantRead' : d.kind === 'write' ? 'sandbox.grantWrite' : 'sandbox.grantConnect');
  return (
    <div className="sandbox-denials" role="group" aria-label={t('sandbox.denials')} data-testid="sandbox-denials">
      {server.sandbox_denials.map((d, i) => {
        const key = `${d.kind} ${d.target}`;
        const textId = `sbx-denial-${server.name}-${i}`;
        return (
          <div key={key} className="sandbox-denial" data-testid="sandbox-denial" data-kind={d.kind} data-grantable={d.grantable}>
            <span className="sandbox-denial-text" id={textId}>
              {text(d)}
            </span>
            {d.count > 1 && <span className="badge">{t('sandbox.times', { count: d.count })}</span>}
            <span className="spacer" />
            {!d.grantable ? (
              <span className="muted small">{t('sandbox.neverGrantable')}</span>
            ) : asking === key ? (
              <span className="sandbox-confirm" role="group" aria-label={confirm(d)} data-testid="sandbox-allow-confirm">
                <span className="small">{confirm(d)}</span>
                <button type="button" className="primary" disabled={busy !== null} onClick={() => void allow(d)}>
                  {busy === key ? t('sandbox.allowing') : grant(d)}
                </button>
                <button type="button" disabled={busy !== null} onClick={() => setAsking(null)}>
                  {t('common.cancel')}
                </button>
              </span>
            ) : (
              <button type="button" disabled={busy !== null} aria-describedby={textId} onClick={() => setAsking(key)}>
                {t('sandbox.allow')}
              </button>
            )}
          </div>
        );
      })}
      {error !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
    </div>
  );
}

/**
 * The sandbox part of a local server's card: nothing for a remote server or before main's check
 * finished (`sandbox` null).
 */
export function ServerSandbox({ server }: { server: ServerView }) {
  const state = server.sandbox;
  if (server.type !== 'local' || !state) return null;
  return (
    <div className="sandbox-card" data-testid="sandbox-card" data-sandbox={state.kind}>
      {state.kind === 'on' ? (
        <SandboxPolicy policy={state.policy} badge={<SandboxBadge state={state} />} />
      ) : (
        <div className="sandbox-row">
          <SandboxBadge state={state} />
        </div>
      )}
      {server.sandbox_denials.length > 0 && <SandboxDenials server={server} />}
    </div>
  );
}
