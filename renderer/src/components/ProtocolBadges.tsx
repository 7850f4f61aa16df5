/**
 * Small protocol facts on a server card (docs/ARCHITECTURE.md "Protocol features"): the legacy
 * SSE fallback of an `http` server, and icons servers declare (MCP "Icons"). Icons come only from
 * `https:` or `data:` image URLs (main filters them); they are loaded without credentials or
 * referrer, and an icon that fails to load is hidden.
 */
import { useState } from 'react';
import type { IconView, ServerView } from '../../../preload/contract/index.js';
import { useApp } from '../store';
import { useTranslation } from '../i18n';

/** One declared icon, 16 px, fetched anonymously; nothing is shown when it fails to load. */
export function Icon({ icon, name, size = 16 }: { icon: IconView | null | undefined; name: string; size?: number }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  if (!icon || failed) return null;
  return (
    <img
      className="mcp-icon"
      data-testid="mcp-icon"
      src={icon.src}
      alt={t('protocol.iconAlt', { name })}
      width={size}
      height={size}
      referrerPolicy="no-referrer"
      crossOrigin="anonymous"
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}

/** The server's own icon (from its `serverInfo`), when it declares one. */
export function ServerIcon({ server }: { server: ServerView }) {
  return <Icon icon={server.protocol?.icon} name={server.name} />;
}

/** The icon of a tool on an approval card: the tool's own, else its server's. */
export function ApprovalIcon({ server, tool }: { server: string; tool: string }) {
  const view = useApp((s) => s.servers[server]);
  const icon = view?.protocol?.tool_icons[tool] ?? view?.protocol?.icon ?? null;
  return <Icon icon={icon} name={tool} size={20} />;
}

/** Facts about the live session worth a badge: the legacy SSE fallback of an `http` server. */
export function ProtocolBadges({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  if (!server.protocol?.sse_fallback) return null;
  return (
    <div className="server-meta">
      <span className="badge warning" data-testid="sse-fallback" title={t('protocol.sseFallbackHint')}>
        {t('protocol.sseFallback')}
      </span>{' '}
      <span className="muted small">{t('protocol.sseFallbackHint')}</span>
    </div>
  );
}
