/**
 * First launch: find a model server already running on this machine — Ollama (127.0.0.1:11434)
 * or LM Studio (127.0.0.1:1234) — and list its models, so the UI can offer it as a ready profile.
 * Probes go to loopback only, without a key, with a short deadline. The probed addresses can be
 * replaced (tests, unusual ports) with `OPENPROGRAM_LOCAL_MODEL_PROBES`, e.g.
 * `ollama=http://127.0.0.1:5000/v1,lmstudio=http://127.0.0.1:5001/v1`, or `none`.
 */
import type { LocalModelOffer } from '../../preload/contract/index.js';
import { classifyHost } from '../mcp/oauth/url-safety.js';
import { listModels } from './model-list.js';

/** One local server to probe. */
export interface LocalProbe {
  kind: LocalModelOffer['kind'];
  /** Its OpenAI-compatible base URL (loopback only). */
  base_url: string;
}

/** The well-known local servers. */
export const DEFAULT_LOCAL_PROBES: LocalProbe[] = [
  { kind: 'ollama', base_url: 'http://127.0.0.1:11434/v1' },
  { kind: 'lmstudio', base_url: 'http://127.0.0.1:1234/v1' },
];

/** Deadline of one probe (ms): a local server answers at once or not at all. */
export const PROBE_TIMEOUT_MS = 1500;

const LABELS: Record<LocalProbe['kind'], string> = { ollama: 'Ollama', lmstudio: 'LM Studio' };

function isLoopbackUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && classifyHost(u.hostname) === 'loopback';
  } catch {
    return false;
  }
}

/**
 * Parse `OPENPROGRAM_LOCAL_MODEL_PROBES` (`kind=url,…` or `none`); entries with an unknown kind or
 * a non-loopback URL are ignored. Undefined/empty → the defaults.
 */
export function probesFromEnv(value: string | undefined): LocalProbe[] {
  if (value === undefined || value.trim() === '') return DEFAULT_LOCAL_PROBES;
  if (value.trim() === 'none') return [];
  const out: LocalProbe[] = [];
  for (const part of value.split(',')) {
    const i = part.indexOf('=');
    const kind = part.slice(0, i).trim();
    const url = part.slice(i + 1).trim();
    if ((kind === 'ollama' || kind === 'lmstudio') && isLoopbackUrl(url)) out.push({ kind, base_url: url });
  }
  return out;
}

/**
 * Probe local model servers in parallel; those that answer with at least one model are offered.
 * @param probes default: `probesFromEnv(process.env.OPENPROGRAM_LOCAL_MODEL_PROBES)`
 */
export async function detectLocalModels(probes?: LocalProbe[], timeoutMs = PROBE_TIMEOUT_MS): Promise<LocalModelOffer[]> {
  const list = (probes ?? probesFromEnv(process.env.OPENPROGRAM_LOCAL_MODEL_PROBES)).filter((p) => isLoopbackUrl(p.base_url));
  const found = await Promise.all(
    list.map(async (p): Promise<LocalModelOffer | null> => {
      try {
        const models = await listModels({ provider: 'openai-compatible', base_url: p.base_url }, { timeoutMs });
        return models.length ? { kind: p.kind, label: LABELS[p.kind], base_url: p.base_url, models } : null;
      } catch {
        return null; // nothing there (or not a model server): nothing to offer
      }
    }),
  );
  return found.filter((o): o is LocalModelOffer => o !== null);
}
