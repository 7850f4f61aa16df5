import { useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import type { ServerView } from '../../../preload/contract/index.js';
import { toolDefinitionTokens } from '../../../preload/contract/rules/index.js';
import { ServerIcon } from './ProtocolBadges';
import { useDismiss } from './use-dismiss';

/**
 * Estimated tokens of the tool definitions a server's enabled, model-visible tools add to every
 * request (the shared rule main's context budget uses; docs/ARCHITECTURE.md "Context budget").
 */
function toolTokens(v: ServerView): number {
  return v.tools.reduce((n, t) => n + (t.enabled && (t.audience === 'model' || t.audience === 'model_and_app') ? toolDefinitionTokens(t) : 0), 0);
}

/**
 * The composer's tool picker: which servers' tools the model gets in this conversation (all ready
 * servers by default). Shows how many tools that is, so the user can narrow a set that is too
 * large for the provider, and what each server's tool definitions cost in tokens. Main applies
 * the choice when it builds each request.
 */
export function ToolPicker() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // The menu closes on Esc and on a click outside it.
  useDismiss(open, () => setOpen(false), box);
  const servers = useApp(useShallow((s) => s.serverOrder.map((n) => s.servers[n]).filter((v) => v !== undefined && v.state.kind === 'ready' && v.tool_count > 0)));
  const picked = useApp((s) => {
    const conv = s.conversations.find((c) => c.id === s.conversationId);
    return conv ? conv.tool_servers : s.draftToolServers;
  });
  const pick = useApp((s) => s.pickToolServers);
  const chosen = (name: string): boolean => picked === null || picked.includes(name);
  const count = servers.reduce((n, v) => n + (chosen(v!.name) ? v!.tool_count : 0), 0);
  const tokens = new Map(servers.map((v) => [v!.name, toolTokens(v!)]));
  const totalTokens = servers.reduce((n, v) => n + (chosen(v!.name) ? tokens.get(v!.name)! : 0), 0);
  const toggle = (name: string): void => {
    const now = servers.filter((v) => chosen(v!.name)).map((v) => v!.name);
    const next = now.includes(name) ? now.filter((n) => n !== name) : [...now, name];
    void pick(next.length === servers.length ? null : next);
  };
  if (servers.length === 0) return null;
  return (
    <div className="tool-picker" ref={box}>
      <button aria-expanded={open} aria-label={t('toolPicker.label')} title={t('toolPicker.title')} onClick={() => setOpen(!open)}>
        {t('toolPicker.button', { count })}
      </button>
      {open && (
        <div className="tool-picker-menu" role="group" aria-label={t('toolPicker.menu')}>
          {servers.map((v) => (
            <label key={v!.name} className="check">
              <input type="checkbox" checked={chosen(v!.name)} onChange={() => toggle(v!.name)} aria-label={t('toolPicker.useServer', { server: v!.name })} />
              <ServerIcon server={v!} />
              <span className="mono tool-picker-server" title={v!.name}>
                {v!.name}
              </span>{' '}
              <span className="muted small">{t('toolPicker.toolCount', { count: v!.tool_count })}</span>{' '}
              <span className="muted small" data-testid="tool-picker-tokens" title={t('toolPicker.tokensTitle')}>
                · {t('toolPicker.tokens', { tokens: tokens.get(v!.name)! })}
              </span>
            </label>
          ))}
          <div className="muted small" data-testid="tool-picker-total-tokens">
            {t('toolPicker.totalTokens', { tokens: totalTokens })}
          </div>
          <button className="link" onClick={() => void pick(null)}>
            {t('toolPicker.useAll')}
          </button>
        </div>
      )}
    </div>
  );
}
