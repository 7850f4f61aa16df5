/**
 * Redaction of stored secret values from every text that leaves main (README, "Security").
 *
 * A server or model endpoint may echo a header or key back (in an error body, on stderr); that
 * text then reaches status errors, the Logs view, error replies and chat events. One
 * {@link SecretRedactor} per app core learns every secret value that passes through the secret
 * store ({@link observeSecrets}) and replaces it, in each encoding a leak could take
 * ({@link secretForms}: plain, JSON-escaped, `util.inspect`-escaped, percent-encoded, HTML-escaped,
 * base64 and base64url at any byte alignment), by `[redacted]`.
 * The carriers apply it at their boundary: `AppCore.emit` (events) and the dispatcher's reply
 * envelope and internal-error log line.
 */
import { format, inspect } from 'node:util';
import type { SecretStore, SecretStoreInfo } from './store.js';

/** What a redacted value is replaced with. */
export const REDACTED = '[redacted]';

/** Values shorter than this are not redacted: they cannot be told apart from ordinary words. */
export const MIN_REDACT_LENGTH = 6;

/** Fields of a JSON-valued secret (OAuth state) whose string values are secrets themselves. */
const SECRET_FIELDS = new Set(['access_token', 'refresh_token', 'id_token', 'client_secret', 'code_verifier', 'verifier', 'token']);

/**
 * The base64 runs every encoding of `bytes` contains, whatever the bytes around it: for each of
 * the three byte alignments, the characters determined by `bytes` alone.
 */
function base64Runs(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const start = Math.ceil((8 * k) / 6);
    const end = Math.floor((8 * (k + bytes.length)) / 6);
    const run = enc.slice(start, end);
    if (run.length >= 8) out.push(run, run.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out;
}

/** `text` with its non-ASCII characters as `\uXXXX` escapes (Python's `json.dumps` default). */
function asciiEscaped(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `text` with its percent-escapes in lower-case hex (`%2f`), as some encoders write them. */
function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
}

function tryDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * The escaped forms of `value` that error texts of Node, the SDK, HTTP libraries and servers
 * print (the list the canary test checks, docs/ARCHITECTURE.md "Security"):
 * plain; JSON-escaped (as is, with `\/`, ASCII-only `\uXXXX`, and escaped twice — JSON inside
 * JSON); `util.inspect` (Node's `Received '…'` of ERR_INVALID_ARG_VALUE, with `\x00`-style escapes);
 * percent-encoded (`encodeURIComponent`, `encodeURI`, form encoding with `+`, lower-case hex) and
 * percent-decoded (a value stored as it appears in a URL); HTML-escaped; base64 and base64url.
 */
export function secretForms(value: string): string[] {
  if (value.length < MIN_REDACT_LENGTH) return [];
  const json = JSON.stringify(value).slice(1, -1);
  // (`inspect` shortens strings past 10,000 characters; no escaped form of those is looked for.)
  const inspected = value.length <= 10_000 ? inspect(value) : JSON.stringify(value);
  const percent = [encodeURIComponent(value), encodeURI(value), new URLSearchParams([['k', value]]).toString().slice(2)];
  const decoded = tryDecode(value);
  const forms = new Set<string>([
    value,
    json,
    json.replace(/\//g, '\\/'),
    asciiEscaped(json),
    JSON.stringify(json).slice(1, -1),
    inspected.slice(1, -1),
    ...percent,
    ...percent.map(lowerHex),
    ...(decoded !== null && decoded !== value ? [decoded] : []),
    value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    ...base64Runs(Buffer.from(value, 'utf8')),
  ]);
  return [...forms].filter((f) => f.length >= MIN_REDACT_LENGTH);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Learns secret values and removes them from outgoing text. Never throws. */
export class SecretRedactor {
  private readonly values = new Set<string>();
  private pattern: RegExp | null = null;
  private dirty = false;

  /**
   * Remember `value` as a secret. A value that is a JSON object (OAuth tokens, client
   * registrations) also contributes the strings of its secret fields (`access_token`, …); a
   * `--name=value` argument its value, and a URL its password.
   */
  add(value: string | undefined | null): void {
    if (typeof value !== 'string' || value.length < MIN_REDACT_LENGTH) return;
    if (!this.values.has(value)) {
      this.values.add(value);
      this.dirty = true;
    }
    // A secret command argument `--name=value` or a URL with a password: the value alone, too
    // (a server may print it without the option's name).
    const option = /^--?[A-Za-z0-9][\w.-]*=(.+)$/s.exec(value);
    if (option) this.add(option[1]);
    const password = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:([^/@\s]+)@/i.exec(value);
    if (password) this.add(password[1]);
    if (value.startsWith('{')) {
      try {
        this.addFields(JSON.parse(value), 0);
      } catch {
        // not JSON: the whole value is the secret
      }
    }
  }

  private addFields(v: unknown, depth: number): void {
    if (typeof v !== 'object' || v === null || depth > 6) return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string' && SECRET_FIELDS.has(k)) this.add(x);
      else if (typeof x === 'object') this.addFields(x, depth + 1);
    }
  }

  /** Whether `value` is exactly one of the known secret values. */
  knows(value: string): boolean {
    return this.values.has(value);
  }

  /** How many distinct values are known (for tests and diagnostics; never the values). */
  get size(): number {
    return this.values.size;
  }

  private regex(): RegExp | null {
    if (this.dirty) {
      const forms = [...new Set([...this.values].flatMap(secretForms))].sort((a, b) => b.length - a.length);
      this.pattern = forms.length ? new RegExp(forms.map(escapeRegExp).join('|'), 'g') : null;
      this.dirty = false;
    }
    return this.pattern;
  }

  /** `text` with every known secret, in every form, replaced by {@link REDACTED}. */
  redactText(text: string): string {
    const re = this.regex();
    if (!re || text.length < MIN_REDACT_LENGTH) return text;
    re.lastIndex = 0;
    return re.test(text) ? text.replace(re, REDACTED) : text;
  }

  /**
   * A copy of `value` with every string redacted — values and object keys alike (a server may
   * use a secret as a key of its structured content); values without a secret are returned as
   * they are (same object). Two keys that redact to the same text are kept apart by a counter
   * (`[redacted]`, `[redacted] (2)`), so no entry is lost. Any depth: the walk is iterative (a
   * value nested 10,000 levels deep is redacted whole, never a stack overflow); an object met
   * again inside itself (a cycle) is left as it is there; class instances are left as they are.
   */
  redactDeep<T>(value: T): T {
    if (!this.regex()) return value;
    return this.walk(value) as T;
  }

  /** Post-order walk with an explicit stack: a container is finished once all its members are. */
  private walk(value: unknown): unknown {
    const stack: WalkFrame[] = [];
    const open = new Set<object>();
    // The value of a leaf (or of a container left as it is), or null when a frame was pushed for it.
    const enter = (v: unknown): { done: unknown } | null => {
      if (typeof v === 'string') return { done: this.redactText(v) };
      if (typeof v !== 'object' || v === null || open.has(v)) return { done: v };
      if (Array.isArray(v)) {
        stack.push({ node: v, keys: null, members: v, out: [] });
        open.add(v);
        return null;
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return { done: v };
      const entries = Object.entries(v);
      stack.push({ node: v, keys: entries.map(([k]) => k), members: entries.map(([, x]) => x), out: [] });
      open.add(v);
      return null;
    };
    const first = enter(value);
    if (first) return first.done;
    for (;;) {
      const f = stack[stack.length - 1]!;
      if (f.out.length < f.members.length) {
        const leaf = enter(f.members[f.out.length]);
        if (leaf) f.out.push(leaf.done);
        continue;
      }
      stack.pop();
      open.delete(f.node);
      const done = this.finish(f);
      const parent = stack[stack.length - 1];
      if (!parent) return done;
      parent.out.push(done);
    }
  }

  /** A container whose members are all walked: itself when nothing changed, else a copy. */
  private finish(f: WalkFrame): unknown {
    if (f.keys === null) return f.out.every((x, i) => x === f.members[i]) ? f.node : f.out;
    const keys = f.keys.map((k) => this.redactText(k));
    if (keys.every((k, i) => k === f.keys![i]) && f.out.every((x, i) => x === f.members[i])) return f.node;
    const out: Record<string, unknown> = Object.getPrototypeOf(f.node) === null ? Object.create(null) : {};
    keys.forEach((k, i) => {
      let key = k;
      for (let n = 2; Object.prototype.hasOwnProperty.call(out, key); n++) key = `${k} (${n})`;
      // defineProperty: a key that redacts to "__proto__" stays an own entry, never a prototype.
      Object.defineProperty(out, key, { value: f.out[i], enumerable: true, writable: true, configurable: true });
    });
    return out;
  }
}

/** One array or plain object being redacted: its keys (null for an array), members, and the members done so far. */
interface WalkFrame {
  node: object;
  keys: string[] | null;
  members: unknown[];
  out: unknown[];
}

/**
 * A view of `store` that teaches `redactor` every value read from or written to it. All calls
 * go to `store` unchanged.
 */
export function observeSecrets<S extends SecretStore>(store: S, redactor: SecretRedactor): SecretStore {
  return {
    async get(key: string): Promise<string | undefined> {
      const v = await store.get(key);
      redactor.add(v);
      return v;
    },
    set(key: string, value: string): Promise<void> {
      redactor.add(value);
      return store.set(key, value);
    },
    delete: (key: string) => store.delete(key),
    update(set: Record<string, string>, remove: string[]): Promise<void> {
      for (const v of Object.values(set)) redactor.add(v);
      return store.update(set, remove);
    },
    keys: () => store.keys(),
    info: (): SecretStoreInfo => store.info(),
  };
}

/** The console methods the app (and libraries it uses) write through. */
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Make the app's log (the console) pass through `redactor`: each call is formatted as Node would
 * (`util.format`), redacted, then written by the original method. Libraries log errors on their
 * own (the AI SDK prints a failed stream's error, which may repeat an echoed API key), so the
 * shells install this once at start. Returns a function that restores the original methods.
 */
export function redactConsole(redactor: SecretRedactor, target: Pick<Console, (typeof CONSOLE_METHODS)[number]> = console): () => void {
  const originals = CONSOLE_METHODS.map((m) => [m, target[m]] as const);
  for (const [m, orig] of originals) {
    target[m] = (...args: unknown[]): void => orig.call(target, redactor.redactText(format(...args)));
  }
  return () => {
    for (const [m, orig] of originals) target[m] = orig;
  };
}
