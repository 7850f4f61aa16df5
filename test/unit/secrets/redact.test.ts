/**
 * secrets/redact: every stored secret value is removed from outgoing text in every encoding the
 * canary test looks for (plain, URL-encoded, JSON-escaped, base64 and base64url at any byte
 * alignment), JSON-valued secrets contribute their token fields, and the store view learns values.
 */
import { describe, expect, it } from 'vitest';
import { observeSecrets, REDACTED, SecretRedactor } from '../../../main/secrets/redact.js';
import { MemorySecretStore } from '../../../main/secrets/store.js';

const SECRET = 'sk-live_9f8e7d6c5b4a3210/+=?';

describe('SecretRedactor', () => {
  const r = new SecretRedactor();
  r.add(SECRET);

  it.each([
    ['plain', `key=${SECRET}.`],
    ['URL-encoded', `?k=${encodeURIComponent(SECRET)}`],
    ['JSON-escaped', JSON.stringify({ k: `"${SECRET}"` })],
    ['base64, aligned', Buffer.from(SECRET).toString('base64')],
    ['base64, offset 1', Buffer.from(`x${SECRET}`).toString('base64')],
    ['base64, offset 2', Buffer.from(`xy${SECRET}y`).toString('base64')],
    ['base64url, offset 1', Buffer.from(`Authorization: Bearer ${SECRET}`).toString('base64url')],
  ])('%s', (_what, text) => {
    const out = r.redactText(text);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain(SECRET);
    for (const k of [0, 1, 2]) expect(out).not.toContain(Buffer.from(`${'x'.repeat(k)}${SECRET}`).toString('base64').slice(4, 20));
  });

  it('leaves other text alone and returns the same object when nothing matches', () => {
    const v = { a: ['hello', { b: 'world' }], n: 3 };
    expect(r.redactDeep(v)).toBe(v);
    expect(r.redactText('nothing here')).toBe('nothing here');
  });

  it('redacts deep inside objects and arrays, not the input itself', () => {
    const v = { error: `HTTP 500: echoed ${SECRET}`, list: [{ text: SECRET }] };
    const out = r.redactDeep(v);
    expect(out).toEqual({ error: `HTTP 500: echoed ${REDACTED}`, list: [{ text: REDACTED }] });
    expect(v.list[0]!.text).toBe(SECRET);
  });

  it('redacts object keys, keeping entries whose keys redact alike apart', () => {
    const v = { [SECRET]: 1, [`${SECRET}`.toUpperCase()]: 2, nested: { [`a-${SECRET}`]: { [SECRET]: 'x' } }, [REDACTED]: 3 };
    const out = r.redactDeep(v) as Record<string, unknown>;
    expect(JSON.stringify(out)).not.toContain(SECRET);
    expect(Object.keys(out)).toEqual([REDACTED, SECRET.toUpperCase(), 'nested', `${REDACTED} (2)`]);
    expect(out.nested).toEqual({ [`a-${REDACTED}`]: { [REDACTED]: 'x' } });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('redacts a value nested 10,000 levels deep whole (key and value at the bottom), never overflowing the stack', () => {
    // As a server or model could send it: parsed from JSON text, objects and arrays in turn.
    const levels = 10_000;
    const text = `${'{"a":['.repeat(levels / 2)}{"${SECRET}":"echoed ${SECRET}"}${']}'.repeat(levels / 2)}`;
    const v = JSON.parse(text) as unknown;
    const out = r.redactDeep(v);
    const bottom = (x: unknown): unknown => {
      for (let i = 0; i < levels / 2; i++) x = (x as { a: unknown[] }).a[0];
      return x;
    };
    expect(bottom(out)).toEqual({ [REDACTED]: `echoed ${REDACTED}` });
    // The input is not changed; a deep value without a secret comes back as the same object.
    expect(bottom(v)).toEqual({ [SECRET]: `echoed ${SECRET}` });
    const clean = JSON.parse(`${'['.repeat(levels)}"nothing"${']'.repeat(levels)}`) as unknown;
    expect(r.redactDeep(clean)).toBe(clean);
  });

  it('leaves an object that contains itself as it is where it recurs', () => {
    const v: Record<string, unknown> = { text: SECRET };
    v.self = v;
    const out = r.redactDeep(v) as Record<string, unknown>;
    expect(out.text).toBe(REDACTED);
    expect(out.self).toBe(v);
  });

  it('ignores values too short to be told from words', () => {
    const s = new SecretRedactor();
    s.add('1');
    s.add('true');
    expect(s.redactText('1 true')).toBe('1 true');
    expect(s.size).toBe(0);
  });

  it('learns the token fields of JSON-valued secrets (OAuth state)', () => {
    const s = new SecretRedactor();
    s.add(JSON.stringify({ tokens: { access_token: 'at-0123456789', refresh_token: 'rt-0123456789', token_type: 'Bearer' }, saved_at: 1 }));
    expect(s.redactText('Authorization: Bearer at-0123456789 / rt-0123456789')).toBe(`Authorization: Bearer ${REDACTED} / ${REDACTED}`);
  });
});

describe('observeSecrets', () => {
  it('teaches the redactor every value read or written', async () => {
    const inner = new MemorySecretStore();
    await inner.set('pre', 'stored-before-123');
    const r = new SecretRedactor();
    const s = observeSecrets(inner, r);
    expect(r.redactText('stored-before-123')).toBe('stored-before-123');
    await s.get('pre');
    await s.set('a', 'written-value-123');
    await s.update({ b: 'updated-value-123' }, []);
    expect(r.redactText('stored-before-123 written-value-123 updated-value-123')).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`);
    expect(await inner.get('a')).toBe('written-value-123');
  });
});
