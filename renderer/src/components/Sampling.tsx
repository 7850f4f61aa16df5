import { useEffect, useState } from 'react';
import type { EventPayloads } from '../../../preload/contract/index.js';
import { call, on } from '../api';

type Request = EventPayloads['sampling.request'];

/**
 * Approval of sampling requests (MCP "Sampling"): a server wants a completion from your model.
 * Shows which server asks and everything it sends; nothing reaches the model until you allow it.
 */
export function SamplingDialogs() {
  const [queue, setQueue] = useState<Request[]>([]);
  useEffect(() => {
    const offs = [
      on('sampling.request', (r) => setQueue((q) => [...q, r])),
      on('sampling.closed', ({ id }) => setQueue((q) => q.filter((r) => r.id !== id))),
    ];
    return () => offs.forEach((o) => o());
  }, []);
  const current = queue[0];
  if (!current) return null;
  const answer = async (approve: boolean) => {
    try {
      await call('sampling.respond', { id: current.id, approve });
    } catch {
      // Already withdrawn.
    }
    setQueue((q) => q.filter((r) => r.id !== current.id));
  };
  return (
    <div className="modal-backdrop">
      <div className="modal panel" role="dialog" aria-label={`Model request from ${current.server}`}>
        <h3>
          <span className="mono">{current.server}</span> wants to use your model
        </h3>
        <p className="muted">It sends the following (up to {current.max_tokens} tokens of answer go back to the server):</p>
        {current.system_prompt && (
          <div>
            <div className="label">System prompt</div>
            <pre className="tool-text">{current.system_prompt}</pre>
          </div>
        )}
        {current.messages.map((m, i) => (
          <div key={i}>
            <div className="label">{m.role}</div>
            <pre className="tool-text">{m.text}</pre>
          </div>
        ))}
        <div className="row">
          <button className="primary" onClick={() => void answer(true)}>
            Allow
          </button>
          <button onClick={() => void answer(false)}>Deny</button>
          {queue.length > 1 && <span className="muted">{queue.length - 1} more waiting</span>}
        </div>
      </div>
    </div>
  );
}
