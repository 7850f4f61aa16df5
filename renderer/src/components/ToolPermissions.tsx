import { useEffect, useState } from 'react';
import type { PermissionMode, ServerView, ToolApproval, ToolView } from '../../../preload/contract/index.js';
import { PERMISSION_MODES, isToolApproval } from '../../../preload/contract/rules/index.js';
import { call } from '../api';
import { useApp } from '../store';
import { useTranslation } from '../i18n';
import { AnnotationBadges } from './ApprovalCard';
import { Icon } from './ProtocolBadges';
import { PinBadge, PinDiff } from './PinStatus';
import { ErrorText } from './ErrorText';

/** Whether the model may be offered this tool at all (its MCP Apps visibility includes the model). */
const offeredToModel = (tool: ToolView): boolean => tool.audience === 'model' || tool.audience === 'model_and_app';

/**
 * Settings → MCP servers → Tools: per tool an Enabled switch and an approval choice (follow the
 * default mode / ask every time / always allow), its pin status (new / changed, with the diff and
 * an Accept button; docs/ARCHITECTURE.md "Pinned tool definitions"), a badge for tools the model is never offered
 * (MCP Apps visibility: views only, or nobody), the tool's declared annotations and its input
 * schema; bulk actions for the whole server. Every change is saved in main at once. The switch
 * and the approval choice also govern a view's calls of the tool (docs/ARCHITECTURE.md "MCP Apps").
 */
export function ServerToolsPanel({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const upsert = useApp((s) => s.upsertServer);
  const [error, setError] = useState<unknown>(null);
  const act = async (fn: () => Promise<ServerView>) => {
    setError(null);
    try {
      upsert(await fn());
    } catch (err) {
      setError(err);
    }
  };
  const bulk = (action: 'enable_all' | 'disable_all' | 'allow_read_only') => void act(() => call('servers.bulkToolSettings', { name: server.name, action }));
  // Main counts what the model is offered: enabled tools the model may call, less those held back
  // until accepted (the pins' hold setting) — the same count the chat's tool table uses.
  const offeredCount = server.tool_count;
  return (
    <div className="tool-permissions" data-testid="tool-permissions">
      <div className="bulk-row">
        <span className="muted small">
          {t('toolPerms.offered', { enabled: offeredCount, total: server.tools.length })}
        </span>
        <span className="spacer" />
        <button onClick={() => bulk('enable_all')}>{t('toolPerms.enableAll')}</button>
        <button onClick={() => bulk('disable_all')}>{t('toolPerms.disableAll')}</button>
        <button onClick={() => bulk('allow_read_only')} title={t('toolPerms.hintsNote')}>
          {t('toolPerms.allowReadOnly')}
        </button>
      </div>
      <div className="hint">{t('toolPerms.hintsNote')}</div>
      {server.tools.map((tool) => (
        <div key={tool.name} className={tool.enabled ? 'tool-row' : 'tool-row disabled'} data-testid={`tool-${tool.original_name}`}>
          <label className="check">
            <input
              type="checkbox"
              aria-label={t('toolPerms.enableTool', { name: tool.original_name })}
              checked={tool.enabled}
              onChange={(e) => void act(() => call('servers.setToolSettings', { name: server.name, tool: tool.original_name, settings: { enabled: e.target.checked } }))}
            />
          </label>
          <div className="tool-row-main">
            <span className="tool-row-name">
              <Icon icon={server.protocol?.tool_icons[tool.original_name]} name={tool.original_name} />
              <span className="mono" title={offeredToModel(tool) ? `${t('toolPerms.modelName')}${t('common.colon')}${tool.name}` : undefined}>
                {tool.original_name}
              </span>
              {tool.title && tool.title !== tool.original_name && <span className="muted"> — {tool.title}</span>}
              {/* The name the model sees, where it is not simply server__tool (sanitized, shortened or renamed); else in the tooltip. */}
              {offeredToModel(tool) && tool.name !== `${server.name}__${tool.original_name}` && (
                <span className="muted small mono" title={t('toolPerms.modelName')}>
                  {' '}
                  {tool.name}
                </span>
              )}
            </span>
            {tool.has_view && (
              <span className="badge hint-muted" data-testid="tool-has-view" title={t('toolPerms.hasView_detail')}>
                {t('toolPerms.hasView')}
              </span>
            )}
            {(tool.audience === 'app' || tool.audience === 'none') && (
              <span className="badge hint-muted" data-testid="tool-audience" data-audience={tool.audience} title={t(`toolPerms.audience_${tool.audience}_detail`)}>
                {t(`toolPerms.audience_${tool.audience}`)}
              </span>
            )}
            <PinBadge pin={tool.pin} />
            {tool.pin.kind !== 'pinned' && (
              <button className="small" aria-label={t('pins.acceptFor', { name: tool.original_name })} onClick={() => void act(() => call('servers.acceptToolDefinitions', { name: server.name, tools: [tool.original_name] }))}>
                {t('pins.accept')}
              </button>
            )}
            <AnnotationBadges annotations={tool.annotations} />
            <PinDiff pin={tool.pin} />
          </div>
          <select
            aria-label={t('toolPerms.approvalFor', { name: tool.original_name })}
            value={tool.approval ?? 'default'}
            disabled={!tool.enabled || tool.audience === 'none'}
            onChange={(e) => {
              const v = e.target.value;
              const approval: ToolApproval | null = isToolApproval(v) ? v : null;
              void act(() => call('servers.setToolSettings', { name: server.name, tool: tool.original_name, settings: { approval } }));
            }}
          >
            <option value="default">{t('toolPerms.defaultMode')}</option>
            <option value="ask">{t('toolPerms.askEvery')}</option>
            <option value="always_allow">{t('toolPerms.alwaysAllow')}</option>
          </select>
          <details className="tool-item tool-schema">
            <summary className="muted small">{tool.description || t('toolPerms.schema')}</summary>
            <pre className="mono small">{JSON.stringify(tool.input_schema, null, 2)}</pre>
          </details>
        </div>
      ))}
      {error !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
    </div>
  );
}

/** The modes in the order shown (the rule's order); label and detail are `permissions.<mode>` and `permissions.<mode>_detail`. */
const MODES: readonly PermissionMode[] = PERMISSION_MODES;

/** Settings → Tool permissions: the default approval mode (per-tool choices override it) and whether unaccepted tool definitions are held back. */
export function PermissionSettings() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<PermissionMode | null>(null);
  const [hold, setHold] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    call('permissions.getMode', {}).then((r) => setMode(r.mode), (e: unknown) => setError(e));
    call('pins.getSettings', {}).then((r) => setHold(r.hold_unaccepted), (e: unknown) => setError(e));
  }, []);
  const chooseHold = async (v: boolean) => {
    setError(null);
    try {
      setHold((await call('pins.setSettings', { hold_unaccepted: v })).hold_unaccepted);
    } catch (err) {
      setError(err);
    }
  };
  const choose = async (m: PermissionMode) => {
    setError(null);
    try {
      setMode((await call('permissions.setMode', { mode: m })).mode);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <div className="panel" data-testid="permission-settings">
      <h2>{t('permissions.title')}</h2>
      <p className="muted">{t('permissions.intro')}</p>
      <div className="perm-modes" role="radiogroup" aria-label={t('permissions.group')}>
        {MODES.map((m) => (
          <label key={m}>
            <input type="radio" name="perm-mode" aria-label={t(`permissions.${m}`)} checked={mode === m} disabled={mode === null} onChange={() => void choose(m)} />
            <span>
              <strong>{t(`permissions.${m}`)}</strong>
              <br />
              <span className="muted small">{t(`permissions.${m}_detail`)}</span>
            </span>
          </label>
        ))}
      </div>
      <div className="hint">{t('toolPerms.hintsNote')}</div>
      <h3>{t('pins.settingsTitle')}</h3>
      <p className="muted small">{t('pins.settingsIntro')}</p>
      <label className="check">
        <input type="checkbox" aria-label={t('pins.hold')} checked={hold === true} disabled={hold === null} onChange={(e) => void chooseHold(e.target.checked)} /> {t('pins.hold')}
      </label>
      {error !== null && (
        <div className="field-error" role="alert">
          <ErrorText error={error} />
        </div>
      )}
    </div>
  );
}
