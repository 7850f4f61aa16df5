import { useEffect, useState } from 'react';
import { call } from '../api';
import { useApp } from '../store';
import type { ModelProvider } from '../../../preload/contract/index.js';

/** Settings → Model: an OpenAI-compatible endpoint (base URL, API key, model). */
export function ModelSettings() {
  const model = useApp((s) => s.model);
  const setModelView = useApp((s) => s.setModelView);
  const [provider, setProvider] = useState<ModelProvider>('openai-compatible');
  const [baseUrl, setBaseUrl] = useState('');
  const [name, setName] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (model) {
      setProvider(model.provider);
      setBaseUrl(model.base_url);
      setName(model.model);
    }
  }, [model]);

  const save = async () => {
    setBusy(true);
    setStatus(null);
    try {
      const view = await call('settings.setModel', {
        provider,
        base_url: baseUrl.trim(),
        model: name.trim(),
        ...(clearKey ? { api_key: '' } : apiKey ? { api_key: apiKey } : {}),
      });
      setModelView(view);
      setApiKey('');
      setClearKey(false);
      setStatus({ tone: 'ok', text: 'Saved.' });
    } catch (err) {
      setStatus({ tone: 'error', text: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="panel">
      <h2>Model</h2>
      <p className="muted">Any OpenAI-compatible endpoint (OpenAI, Ollama, LM Studio, vLLM, OpenRouter), or Anthropic.</p>
      <label className="field">
        <span>Provider</span>
        <select
          aria-label="Provider"
          value={provider}
          onChange={(e) => {
            const p = e.target.value as ModelProvider;
            setProvider(p);
            if (p === 'anthropic' && !baseUrl.trim()) setBaseUrl('https://api.anthropic.com/v1');
          }}
        >
          <option value="openai-compatible">OpenAI-compatible (OpenAI, Ollama, LM Studio, vLLM, OpenRouter)</option>
          <option value="anthropic">Anthropic</option>
        </select>
      </label>
      <label className="field">
        <span>Base URL</span>
        <input aria-label="Base URL" placeholder="https://api.openai.com/v1" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
      </label>
      <label className="field">
        <span>Model</span>
        <input aria-label="Model name" placeholder="gpt-4o-mini" value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label className="field">
        <span>
          API key {model?.api_key.has_value && <span className="badge set">set {model.api_key.masked}</span>}
        </span>
        <input
          aria-label="API key"
          type="password"
          autoComplete="off"
          placeholder={model?.api_key.has_value ? 'Leave empty to keep the stored key' : 'Optional for local servers'}
          value={apiKey}
          disabled={clearKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
      </label>
      {model?.api_key.has_value && (
        <label className="check">
          <input type="checkbox" checked={clearKey} onChange={(e) => setClearKey(e.target.checked)} /> Remove the stored key
        </label>
      )}
      <div className="row">
        <button className="primary" onClick={() => void save()} disabled={busy}>
          Save model
        </button>
        {status && <span className={status.tone === 'ok' ? 'ok-text' : 'error-text'} role="status">{status.text}</span>}
      </div>
    </div>
  );
}
