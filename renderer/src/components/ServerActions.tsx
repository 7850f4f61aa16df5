/**
 * A server card's actions: one primary action in view — Sign in (or Cancel sign-in) while an
 * OAuth server waits for it, Restart when it failed, else Tools (a failed server's Tools stays in
 * view, plain) — and the rest (Restart, Edit, Logs, Inspector, Sign out,
 * Remove) behind a "more" button. The menu is a disclosure of plain buttons, so each keeps its
 * name for assistive technology; it closes on Escape, a click outside or a chosen action. Remove
 * asks first, in the app's own confirmation beside the menu (./ConfirmAsk.tsx: Cancel has the
 * focus; Escape or a click outside keeps the server).
 */
import { useEffect, useRef, useState } from 'react';
import type { ServerView } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useTranslation } from '../i18n';
import { useApp } from '../store';
import { ConfirmAsk } from './ConfirmAsk';
import { Glyph } from './icons';
import { useDismiss } from './use-dismiss';

/** The card's open panel. */
export type CardPanel = 'none' | 'tools' | 'logs';

/** What the actions change on their card. */
export interface ServerActionsProps {
  server: ServerView;
  panel: CardPanel;
  setPanel: (p: CardPanel) => void;
  editing: boolean;
  setEditing: (e: boolean) => void;
  /** Run a call, show its error on the card, take the server view it returns. */
  act: (fn: () => Promise<ServerView | void>) => Promise<void>;
}

/** The visible action and the "more" menu of one server card. */
export function ServerActions({ server, panel, setPanel, editing, setEditing, act }: ServerActionsProps) {
  const { t } = useTranslation();
  const drop = useApp((s) => s.dropServer);
  const openInspector = useApp((s) => s.openInspector);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const menuId = `server-menu-${server.name}`;

  useDismiss(open, () => setOpen(false), box, () => toggle.current?.focus());
  useEffect(() => {
    if (open) box.current?.querySelector<HTMLButtonElement>('.server-menu button:not(:disabled)')?.focus();
  }, [open]);

  /** A menu entry: runs its action and closes the menu. */
  const item = (run: () => void) => () => {
    setOpen(false);
    run();
  };
  const needsSignIn = server.auth.kind === 'oauth' && server.auth.state !== 'signing_in' && server.auth.state !== 'authorized';
  const signingIn = server.auth.state === 'signing_in';
  // A server that failed (and needs no sign-in): trying again is what the user most likely wants.
  const restartFirst = server.state.kind === 'error' && !needsSignIn && !signingIn && server.enabled;
  const restart = () => void act(() => call('servers.restart', { name: server.name }));

  return (
    <div className="server-actions" ref={box}>
      {needsSignIn && (
        <button className="primary" onClick={() => void act(async () => void (await call('servers.signIn', { name: server.name })))} disabled={!server.enabled}>
          {t('servers.signIn')}
        </button>
      )}
      {signingIn && <button onClick={() => void act(async () => void (await call('servers.cancelSignIn', { name: server.name })))}>{t('servers.cancelSignIn')}</button>}
      {restartFirst && (
        <button className="primary-quiet" onClick={restart}>
          {t('servers.restart')}
        </button>
      )}
      <button className={needsSignIn || signingIn || restartFirst ? undefined : 'primary-quiet'} aria-expanded={panel === 'tools'} onClick={() => setPanel(panel === 'tools' ? 'none' : 'tools')}>
        {t('servers.tools')}
      </button>
      <button
        ref={toggle}
        className="icon-button"
        aria-label={t('servers.moreLabel', { name: server.name })}
        title={t('servers.more')}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen(!open)}
      >
        <Glyph name="more" />
      </button>
      {open && (
        <div className="server-menu" id={menuId} role="group" aria-label={t('servers.moreLabel', { name: server.name })}>
          {!restartFirst && (
            <button onClick={item(restart)} disabled={!server.enabled}>
              {t('servers.restart')}
            </button>
          )}
          <button onClick={item(() => setEditing(!editing))} aria-pressed={editing}>
            {t('common.edit')}
          </button>
          <button onClick={item(() => setPanel(panel === 'logs' ? 'none' : 'logs'))} aria-pressed={panel === 'logs'}>
            {t('servers.logs')}
          </button>
          <button onClick={item(() => openInspector(server.name))}>{t('inspector.open')}</button>
          {server.auth.kind === 'oauth' && server.auth.state === 'authorized' && (
            <button onClick={item(() => void act(() => call('servers.signOut', { name: server.name })))}>{t('servers.signOut')}</button>
          )}
          <button className="danger" onClick={item(() => setConfirming(true))}>
            {t('common.remove')}
          </button>
        </div>
      )}
      {confirming && (
        <ConfirmAsk
          className="server-menu server-confirm"
          testId="server-remove-confirm"
          question={t('servers.confirmRemove', { name: server.name })}
          confirmLabel={t('common.remove')}
          returnFocus={toggle}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void act(async () => {
              await call('servers.remove', { name: server.name });
              drop(server.name);
            });
          }}
        />
      )}
    </div>
  );
}
