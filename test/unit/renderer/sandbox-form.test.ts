/**
 * The window's sandbox logic (renderer/src/components/sandbox/, docs/ARCHITECTURE.md "Sandbox"):
 * the form's draft → add input and edit PATCH (only what changed), which field an error from
 * main names, the PATCH "Allow for this server" sends, and the badge's words for each state (the
 * unavailable reasons included, which this machine cannot show for real) in both languages.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxState } from '../../../preload/contract/index.js';
import { DEFAULT_SANDBOX_SETTINGS, sandboxHostSchema } from '../../../preload/contract/sandbox.js';
import { i18next } from '../../../renderer/src/i18n/index.js';
import { SandboxBadge } from '../../../renderer/src/components/sandbox/SandboxBadge.js';
import { allowPatchOf, draftOf, fieldErrorOf, hostRuleOf, linesOf, SANDBOX_DEFAULTS, sandboxFieldOf, sandboxPatchOf, settingsOf } from '../../../renderer/src/components/sandbox/sandbox-form.js';

const stored = { enabled: true, read: ['/data'], write: [], hosts: ['api.example.com'] };

describe('the sandbox form', () => {
  it('its defaults are the contract’s', () => {
    expect(SANDBOX_DEFAULTS).toEqual(DEFAULT_SANDBOX_SETTINGS);
  });

  it('reads one entry per line: trimmed, no blanks, no duplicates', () => {
    expect(linesOf(' /a \n\n/b\r\n/a\n  ')).toEqual(['/a', '/b']);
  });

  it('gives the add form the whole settings', () => {
    expect(settingsOf({ enabled: false, read: '/r', write: '', hosts: 'x.org\n*.y.org:443' })).toEqual({ enabled: false, read: ['/r'], write: [], hosts: ['x.org', '*.y.org:443'] });
    expect(settingsOf(draftOf(null))).toEqual(DEFAULT_SANDBOX_SETTINGS);
  });

  it('gives the edit form a PATCH of only what changed', () => {
    expect(sandboxPatchOf(stored, draftOf(stored))).toBeUndefined();
    expect(sandboxPatchOf(stored, { ...draftOf(stored), enabled: false })).toEqual({ enabled: false });
    expect(sandboxPatchOf(stored, { ...draftOf(stored), write: '/w', hosts: '' })).toEqual({ write: ['/w'], hosts: [] });
    expect(sandboxPatchOf(null, { ...draftOf(null), read: '/r' })).toEqual({ read: ['/r'] });
  });

  it('finds the sandbox field (and the refused entry) an error from main names', () => {
    expect(sandboxFieldOf('config.sandbox.hosts.1')).toEqual({ field: 'hosts', index: 1 });
    expect(sandboxFieldOf('patch.sandbox.read')).toEqual({ field: 'read', index: null });
    expect(sandboxFieldOf('sandbox.write.0')).toEqual({ field: 'write', index: 0 });
    expect(sandboxFieldOf('config.command')).toBeNull();
    expect(sandboxFieldOf(undefined)).toBeNull();
    const d = { ...draftOf(null), hosts: 'ok.org\n\nnot a host' };
    expect(fieldErrorOf(d, { field: 'hosts', index: 1 }, 'm')).toEqual({ value: 'not a host', message: 'm' });
    expect(fieldErrorOf(d, { field: 'hosts', index: 9 }, 'm')).toEqual({ value: null, message: 'm' });
  });
});

describe('Allow for this server', () => {
  it('appends the path or host to the current lists, once', () => {
    expect(allowPatchOf(stored, { kind: 'read', target: '/home/u/notes' })).toEqual({ read: ['/data', '/home/u/notes'] });
    expect(allowPatchOf(stored, { kind: 'read', target: '/data' })).toEqual({ read: ['/data'] });
    expect(allowPatchOf(null, { kind: 'write', target: '/out' })).toEqual({ write: ['/out'] });
    expect(allowPatchOf(stored, { kind: 'connect', target: 'pypi.org:443' })).toEqual({ hosts: ['api.example.com', 'pypi.org:443'] });
  });

  it('writes a refused connection as a host rule the contract accepts (IPv6 in brackets)', () => {
    for (const [target, rule] of [
      ['example.com:443', 'example.com:443'],
      ['10.0.0.1:80', '10.0.0.1:80'],
      ['::1:8080', '[::1]:8080'],
      ['[2001:db8::1]:443', '[2001:db8::1]:443'],
    ] as const) {
      expect(hostRuleOf(target)).toBe(rule);
      expect(sandboxHostSchema.safeParse(rule).success).toBe(true);
    }
  });
});

describe('the sandbox badge', () => {
  beforeAll(async () => {
    await i18next.changeLanguage('en');
  });
  afterAll(async () => {
    await i18next.changeLanguage('en');
  });
  const text = (state: SandboxState): string => renderToString(createElement(SandboxBadge, { state })).replace(/<[^>]+>/g, '').replace(/&quot;/g, '"');

  it('says sandboxed, unsandboxed (with what that means), or not sandboxed and why', () => {
    expect(text({ kind: 'on', engine: 'bubblewrap', policy: null })).toBe('Sandboxed');
    expect(text({ kind: 'off' })).toContain('Unsandboxed');
    expect(text({ kind: 'off' })).toContain('full rights');
    expect(text({ kind: 'unavailable', reason: 'platform', platform: 'win32', detail: null })).toBe('Not sandboxednot sandboxed on Windows');
    expect(text({ kind: 'unavailable', reason: 'platform', platform: 'darwin', detail: null })).toContain('not sandboxed on macOS');
    expect(text({ kind: 'unavailable', reason: 'platform', platform: 'freebsd', detail: null })).toContain('not sandboxed on freebsd');
    expect(text({ kind: 'unavailable', reason: 'no_bubblewrap', platform: 'linux', detail: null })).toContain('install bubblewrap (package bubblewrap)');
    const ns = renderToString(createElement(SandboxBadge, { state: { kind: 'unavailable', reason: 'no_namespaces', platform: 'linux', detail: 'setting up uid map: Permission denied' } }));
    expect(ns).toContain('bubblewrap cannot create namespaces');
    // The system's words are marked as quoted from the system.
    expect(ns).toMatch(/<q class="sandbox-system-words">The system says: “setting up uid map: Permission denied”<\/q>/);
  });

  it('speaks Chinese too', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(text({ kind: 'on', engine: 'bubblewrap', policy: null })).toBe('已沙箱隔离');
    expect(text({ kind: 'unavailable', reason: 'platform', platform: 'win32', detail: null })).toContain('Windows 上暂不支持沙箱');
  });
});
