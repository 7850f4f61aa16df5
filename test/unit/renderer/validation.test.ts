/**
 * Schema refusals in the user's words (renderer/src/i18n/validation.ts): the contract's real
 * schemas refuse real inputs, main's dispatcher turns the first zod issue into a
 * `ValidationIssue` (code, path, bounds — never the message), and the window words it by code
 * and path in English and Chinese. docs/ARCHITECTURE.md "The IPC contract", "Languages".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { channels, type IpcError } from '../../../preload/contract/index.js';
import { toIpcError } from '../../../main/ipc/dispatch.js';
import { i18next } from '../../../renderer/src/i18n/index.js';
import { describeError } from '../../../renderer/src/i18n/errors.js';
import { describeIssue } from '../../../renderer/src/i18n/validation.js';

afterEach(async () => {
  await i18next.changeLanguage('en');
});

/** The error main sends when `channel` refuses `input`. */
function refusal(channel: keyof typeof channels, input: unknown): IpcError {
  const r = channels[channel].input.safeParse(input);
  expect(r.success).toBe(false);
  if (r.success) throw new Error('accepted');
  return toIpcError(r.error);
}

const profile = { name: 'P', provider: 'openai-compatible', base_url: 'https://api.example.com/v1', model: 'm' } as const;

describe('the issue main sends', () => {
  it('carries the code, the path and the bound, not the message', () => {
    const e = refusal('chat.send', { conversation_id: 'c', text: 'x'.repeat(200_001) });
    expect(e.issue).toEqual({ code: 'too_big', path: ['text'], origin: 'string', maximum: 200_000 });
    expect(e.field).toBe('text');
  });

  it('a schema check names its rule', () => {
    expect(refusal('catalog.setSettings', { registry_url: 'http://registry.example.com' }).issue).toMatchObject({ code: 'custom', path: ['registry_url'], rule: 'https_or_loopback' });
    expect(refusal('chat.send', { conversation_id: 'c', text: '  ' }).issue).toMatchObject({ code: 'custom', path: ['text'], rule: 'required' });
  });
});

describe('the sentence the user reads', () => {
  it('English: by code and path, in place of the raw validator text', () => {
    const cases: Array<[IpcError, string]> = [
      [refusal('chat.send', { conversation_id: 'c', text: 'x'.repeat(200_001) }), 'The message is too long: at most 200,000 characters.'],
      [refusal('profiles.save', { ...profile, model: '' }), 'The model name is required.'],
      [refusal('profiles.save', { ...profile, base_url: 'api.example.com/v1' }), 'The base URL must be a full address starting with https:// (or http://).'],
      [refusal('profiles.save', { ...profile, base_url: '' }), 'The base URL is required.'],
      [refusal('profiles.test', { provider: 'openai-compatible', base_url: '' }), 'The base URL is required.'],
      [refusal('catalog.setSettings', { registry_url: 'not a url' }), 'The registry address must be a full address starting with https:// (or http://).'],
      [refusal('catalog.setSettings', { registry_url: 'http://registry.example.com' }), 'The registry address must use https:// (http:// only to this computer).'],
      [refusal('servers.add', { name: 'a b', config: { type: 'local', command: ['x'] } }), 'The name may use letters, digits, “_”, “-” and “.”, and must start with a letter or digit.'],
      [refusal('servers.add', { name: 'a', config: { type: 'local', command: ['x'], env: { K: 'v\u0000' } } }), 'An environment variable contains a control character; remove it.'],
      [refusal('profiles.save', { ...profile, context_window: 10 }), 'The context window must be at least 1,024.'],
    ];
    for (const [e, sentence] of cases) {
      expect(describeError(e), e.message).toBe(sentence);
      expect(describeError(e)).not.toContain(e.message);
    }
  });

  it('Chinese: the same issues in Chinese, no English validator text', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(describeError(refusal('chat.send', { conversation_id: 'c', text: 'x'.repeat(200_001) }))).toBe('消息过长：最多 200,000 个字符。');
    expect(describeError(refusal('profiles.save', { ...profile, model: '' }))).toBe('模型名称为必填项。');
    expect(describeError(refusal('profiles.save', { ...profile, base_url: '' }))).toBe('基础 URL为必填项。');
    expect(describeError(refusal('catalog.setSettings', { registry_url: 'not a url' }))).toBe('注册中心地址必须是以 https://（或 http://）开头的完整地址。');
  });

  it('an unknown code or field still reads as a sentence', () => {
    expect(describeIssue({ code: 'other', path: ['whatever'] })).toBe('This value was not accepted.');
    expect(describeIssue({ code: 'invalid_type', path: ['config', 'frobnicate'] })).toBe('This value has the wrong kind of value.');
  });
});
