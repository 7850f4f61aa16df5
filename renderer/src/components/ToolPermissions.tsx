import { useEffect, useState } from 'react';
import type { PermissionMode, ServerView, ToolApproval } from '../../../preload/contract/index.js';
import { call } from '../api';
import { useApp } from '../store';
import { AnnotationBadges } from './ApprovalCard';

/** Shown wherever annotations are used: they are the server's own claims. */
export const HINTS_NOTE = 'Servers declare these hints (read-only, destructive, …) about their own tools themselves; the app cannot check them.';

/**
 * Settings → MCP servers → Tools: per tool an Enabled switch and an approval choice (follow the
 * default mode / ask every time / always allow), the tool's declared annotations and its input
 * schema; bulk actions for the whole server. Every change is saved in main at once.
 */
export function ServerToolsPanel({ server }: { server: ServerView }) {
  const upsert = useApp((s) => s.upsertServer);
  const [error, setError] = useState<string | null>(null);
  const act = async (fn: () => Promise<ServerView>) => {
    setError(null);
    try {
      upsert(await fn());
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const bulk = (action: 'enable_all' | 'disable_all' | 'allow_read_only') => void act(() => call('servers.bulkToolSettings', { name: server.name, action }));
  const enabledCount = server.tools.filter((t) => t.enabled).length;
  return (
    <div className="tool-permissions" data-testid="tool-permissions">
      <div className="bulk-row">
        <span className="muted small">
          {enabledCount} of {server.tools.length} tools offered to the model.
        </span>
        <span className="spacer" />
        <button onClick={() => bulk('enable_all')}>Enable all</button>
        <button onClick={() => bulk('disable_all')}>Disable all</button>
        <button onClick={() => bulk('allow_read_only')} title={HINTS_NOTE}>
          Always allow read-only tools
        </button>
      </div>
      <div className="hint">{HINTS_NOTE}</div>
      {server.tools.map((t) => (
        <div key={t.name} className={t.enabled ? 'tool-row' : 'tool-row disabled'} data-testid={`tool-${t.original_name}`}>
          <label className="check">
            <input
              type="checkbox"
              aria-label={`Enable tool ${t.original_name}`}
              checked={t.enabled}
              onChange={(e) => void act(() => call('servers.setToolSettings', { name: server.name, tool: t.original_name, settings: { enabled: e.target.checked } }))}
            />
          </label>
          <div className="tool-row-main">
            <span className="tool-row-name">
              <span className="mono">{t.original_name}</span>
              {t.title && t.title !== t.original_name && <span className="muted"> — {t.title}</span>}
              <span className="muted small mono" title="The name the model sees">
                {' '}
                {t.name}
              </span>
            </span>
            <AnnotationBadges annotations={t.annotations} />
          </div>
          <select
            aria-label={`Approval for ${t.original_name}`}
            value={t.approval ?? 'default'}
            disabled={!t.enabled}
            onChange={(e) => {
              const v = e.target.value;
              const approval: ToolApproval | null = v === 'ask' || v === 'always_allow' ? v : null;
              void act(() => call('servers.setToolSettings', { name: server.name, tool: t.original_name, settings: { approval } }));
            }}
          >
            <option value="default">Default mode</option>
            <option value="ask">Ask every time</option>
            <option value="always_allow">Always allow</option>
          </select>
          <details className="tool-item tool-schema">
            <summary className="muted small">{t.description || 'schema'}</summary>
            <pre className="mono small">{JSON.stringify(t.input_schema, null, 2)}</pre>
          </details>
        </div>
      ))}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

const MODES: Array<{ mode: PermissionMode; label: string; detail: string }> = [
  { mode: 'ask_all', label: 'Ask for every tool call', detail: 'Every call waits for your approval.' },
  {
    mode: 'ask_unless_read_only',
    label: 'Ask unless the tool is read-only (default)',
    detail: 'Calls to tools whose server declares them read-only run without asking; all others ask.',
  },
  { mode: 'never_ask', label: 'Never ask', detail: 'Every enabled tool runs without asking. Disabled tools still never run.' },
];

/** Settings → Tool permissions: the default approval mode (per-tool choices override it). */
export function PermissionSettings() {
  const [mode, setMode] = useState<PermissionMode | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call('permissions.getMode', {}).then((r) => setMode(r.mode), (e: Error) => setError(e.message));
  }, []);
  const choose = async (m: PermissionMode) => {
    setError(null);
    try {
      setMode((await call('permissions.setMode', { mode: m })).mode);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div className="panel" data-testid="permission-settings">
      <h2>Tool permissions</h2>
      <p className="muted">
        When the model wants to call a tool, the app decides in its core — not in this window — whether to run it, ask you, or refuse. Per-tool choices
        (Settings → MCP servers → Tools) override this default; a disabled tool is never offered to the model and never runs.
      </p>
      <div className="perm-modes" role="radiogroup" aria-label="Default approval mode">
        {MODES.map((m) => (
          <label key={m.mode}>
            <input type="radio" name="perm-mode" aria-label={m.label} checked={mode === m.mode} disabled={mode === null} onChange={() => void choose(m.mode)} />
            <span>
              <strong>{m.label}</strong>
              <br />
              <span className="muted small">{m.detail}</span>
            </span>
          </label>
        ))}
      </div>
      <div className="hint">{HINTS_NOTE}</div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
