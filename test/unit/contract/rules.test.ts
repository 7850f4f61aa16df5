/**
 * The shared rules (docs/ARCHITECTURE.md "Shared rules"): each rule's edge cases, the call sites in
 * main, the window and the contract agreeing with it, and a scan that fails when a second
 * definition of a rule appears outside preload/contract/rules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PERMISSION_MODES,
  SERVER_NAME_MAX_LENGTH,
  TOOL_APPROVALS,
  classifyResourceUri,
  isHttpsOrLoopbackHttp,
  isLoopbackHost,
  isPermissionMode,
  isToolApproval,
  isValidServerName,
  keyWouldTravelInClear,
  mayReadFromServer,
  ownSchemes,
} from '../../../preload/contract/rules/index.js';
import { permissionModeSchema, registryUrlSchema, serverNameSchema, toolApprovalSchema } from '../../../preload/contract/index.js';
import { classifyHost, isSafeAuthorizationUrl, isSafeEndpointUrl } from '../../../main/mcp/oauth/url-safety.js';
import { checkRemoteUrl } from '../../../main/mcp/catalog/mapping.js';
import { iconUrlAllowed } from '../../../main/mcp/catalog/icons.js';
import { ROOT } from '../helpers.js';

const LOOPBACK = [
  '127.0.0.1',
  '127.0.0.2',
  '127.255.255.255',
  '127.1.2.3',
  '::1',
  '[::1]',
  'localhost',
  'LOCALHOST',
  'LocalHost',
  'foo.localhost',
  'a.b.localhost',
  'FOO.LOCALHOST',
  '::ffff:127.0.0.1',
  '::ffff:127.9.9.9',
  '::ffff:7f00:1',
  '[::ffff:7f00:1]',
  '[::FFFF:7F00:1]',
  '::ffff:7fff:ffff',
];
const NOT_LOOPBACK = [
  '',
  '127.1', // shorthand: only after new URL() canonicalizes it (below)
  '127.0.1',
  '127.00.0.1',
  '127.0.0.01',
  '127.0.0.256',
  '127.0.0',
  '127.0.0.1.',
  '127.0.0.1.evil.com',
  '127.0.0.1.nip.io',
  '128.0.0.1',
  '126.255.255.255',
  '0.0.0.0',
  '10.0.0.1',
  'localhost.',
  'foo.localhost.',
  'localhost.evil.com',
  'localhost.localdomain',
  'evillocalhost',
  'notlocalhost',
  'localhostx',
  '::2',
  '::',
  '0:0:0:0:0:0:0:1', // expanded: only after new URL() canonicalizes it (below)
  '[::1',
  '::1]',
  '::ffff:10.0.0.1',
  '::ffff:a00:1',
  '::ffff:7f:1',
  '::ffff:128.0.0.1',
  '::ffff:127.0.0.256',
  '::ffff:0:127.0.0.1',
  'fe80::1',
  'example.com',
];

describe('loopback rule', () => {
  it.each(LOOPBACK)('%s is loopback', (h) => expect(isLoopbackHost(h)).toBe(true));
  it.each(NOT_LOOPBACK)('%s is not loopback', (h) => expect(isLoopbackHost(h)).toBe(false));

  it.each([
    ['http://127.1/', true],
    ['http://0x7f.1/', true],
    ['http://2130706433/', true],
    ['http://[0:0:0:0:0:0:0:1]:8080/', true],
    ['http://[::ffff:127.0.0.1]/', true],
    ['http://LOCALHOST:3000/', true],
    ['http://App.LocalHost/', true],
    ['http://localhost./', false],
    ['http://127.0.0.1.evil.com/', false],
    ['http://localhost@evil.com/', false],
    ['http://evil.com#@127.0.0.1/', false],
    ['http://[::ffff:10.0.0.1]/', false],
  ])('the host of %s (as URL spells it) is loopback: %s', (url, want) => expect(isLoopbackHost(new URL(url).hostname)).toBe(want));

  it('https anywhere, http only to loopback, nothing else', () => {
    for (const ok of ['https://example.com/', 'http://127.0.0.1:1/', 'http://[::1]/', 'http://localhost/', 'http://x.localhost/']) expect(isHttpsOrLoopbackHttp(new URL(ok)), ok).toBe(true);
    for (const no of ['http://example.com/', 'http://127.0.0.1.evil.com/', 'http://localhost./', 'ftp://127.0.0.1/', 'ws://127.0.0.1/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x'])
      expect(isHttpsOrLoopbackHttp(new URL(no)), no).toBe(false);
  });

  it('a key travels in clear over http: to anything but loopback', () => {
    for (const [url, clear] of [
      ['http://192.168.1.5:11434/v1', true],
      ['http://example.com/v1', true],
      ['http://127.0.0.1.evil.com/v1', true],
      ['http://localhost./v1', true],
      ['http://[::1]:11434/v1', false],
      ['http://127.0.0.2:1234/v1', false],
      ['http://ollama.localhost/v1', false],
      ['https://example.com/v1', false],
      ['not a url', false],
    ] as const)
      expect(keyWouldTravelInClear(url), url).toBe(clear);
  });

  it('main and the contract classify every host by it', () => {
    for (const h of [...LOOPBACK, ...NOT_LOOPBACK]) expect(classifyHost(h) === 'loopback', h).toBe(isLoopbackHost(h.replace(/^\[|\]$/g, '')));
    for (const h of ['127.0.0.2', '[::1]', 'localhost', 'foo.localhost', '[::ffff:7f00:1]', 'example.com', '127.0.0.1.evil.com', '10.0.0.1', 'localhost.']) {
      const url = `http://${h}:11434/v1`;
      const loop = isLoopbackHost(new URL(url).hostname);
      expect(isSafeAuthorizationUrl(url), url).toBe(loop);
      expect(isSafeEndpointUrl(url), url).toBe(loop);
      expect(iconUrlAllowed(url), url).toBe(loop);
      expect(registryUrlSchema.safeParse(url).success, url).toBe(loop);
      expect(keyWouldTravelInClear(url), url).toBe(!loop);
      if (loop) expect(checkRemoteUrl(url)).toBe(new URL(url).href);
      else expect(() => checkRemoteUrl(url), url).toThrow(/Only https/);
    }
  });
});

describe('the registry URL (contract) follows it', () => {
  it('https anywhere; http only to loopback and without credentials', () => {
    for (const ok of ['https://registry.modelcontextprotocol.io', 'https://u:p@registry.example/', 'http://127.0.0.1:4000', 'http://[::1]/v0', 'HTTP://LOCALHOST:1/']) expect(registryUrlSchema.safeParse(ok).success, ok).toBe(true);
    for (const no of ['http://user@127.0.0.1/', 'http://u:p@localhost:1/', 'http://registry.example/', 'http://localhost.:1/', 'http://localhost@evil.com/', 'ftp://127.0.0.1/', 'not a url']) expect(registryUrlSchema.safeParse(no).success, no).toBe(false);
  });
});

describe('server-name rule', () => {
  const valid = ['a', 'A', '0', 'my.fs', 'x_y-z', 'Server1', 'a'.repeat(SERVER_NAME_MAX_LENGTH)];
  const invalid = ['', '-a', '.a', '_a', '__proto__', 'a b', ' a', 'a/b', 'a:b', 'ä', 'a\n', 'a'.repeat(SERVER_NAME_MAX_LENGTH + 1)];
  it.each(valid)('%s is a server name', (n) => expect(isValidServerName(n)).toBe(true));
  it.each(invalid)('%j is not a server name', (n) => expect(isValidServerName(n)).toBe(false));
  it('the contract accepts exactly the names the rule accepts', () => {
    for (const n of [...valid, ...invalid]) expect(serverNameSchema.safeParse(n).success, n).toBe(isValidServerName(n));
  });
});

describe('resource-link rule', () => {
  const own = ownSchemes(['demo://a', 'demo://t/{id}', 'https://x', 'JavaScript:x', 'data:x', 'file:///srv/a']);
  it('a server owns the schemes it lists, never web or script schemes', () => expect([...own].sort()).toEqual(['demo', 'file']));
  it.each([
    ['demo://a/1', 'server'],
    ['DEMO://a/1', 'server'],
    ['file:///srv/b', 'server'],
    ['https://example.com/', 'https'],
    ['data:image/png;base64,AAAA', 'data_image'],
    ['data:image/svg+xml;base64,PHN2Zz4=', 'text'],
    ['javascript:alert(1)', 'text'],
    ['http://example.com/', 'text'],
    ['other://x', 'text'],
    ['demo://a\u0000', 'text'],
    [`demo://${'a'.repeat(8200)}`, 'text'],
    ['', 'text'],
  ] as const)('%s → %s', (uri, kind) => expect(classifyResourceUri(uri, own)).toBe(kind));
  it('a read goes to a server only for its own schemes', () => {
    expect(mayReadFromServer('demo://a', own)).toBe(true);
    expect(mayReadFromServer('https://example.com/', own)).toBe(false);
    expect(mayReadFromServer('file:///etc/passwd', ownSchemes(['demo://a']))).toBe(false);
  });
});

describe('approval modes', () => {
  it('the contract enums are the tuples', () => {
    expect(permissionModeSchema.options).toEqual([...PERMISSION_MODES]);
    expect(toolApprovalSchema.options).toEqual([...TOOL_APPROVALS]);
  });
  it('the guards accept the tuples and nothing else', () => {
    for (const m of PERMISSION_MODES) expect(isPermissionMode(m)).toBe(true);
    for (const a of TOOL_APPROVALS) expect(isToolApproval(a)).toBe(true);
    for (const v of ['ASK_ALL', 'ask', 'always', 'never', '', null, undefined, 1, {}]) expect(isPermissionMode(v), String(v)).toBe(false);
    for (const v of ['ASK', 'ask_all', 'always', 'deny', 'default', '', null, undefined]) expect(isToolApproval(v), String(v)).toBe(false);
  });
});

/**
 * One definition per rule: these spellings define a rule (a regex for 127/8 or `[::1]`, a quoted
 * loopback name, a set of modes, the server-name characters, the resource-link schemes). Outside
 * the rules module they may appear only where listed, each for a stated reason.
 */
describe('no second definition', () => {
  const RULES_DIR = 'preload/contract/rules/';
  const SIGNS: Array<{ rule: string; re: RegExp }> = [
    { rule: 'loopback', re: /127\\\./ },
    { rule: 'loopback', re: /\\\[::1\\\]/ },
    { rule: 'loopback', re: /['"`]\[?::1\]?['"`]/ },
    { rule: 'loopback', re: /['"`]\.?localhost['"`]/ },
    { rule: 'loopback', re: /\b(function\s+isLoopbackHost|isLoopbackHost\s*=)/ },
    { rule: 'server name', re: /\[A-Za-z0-9\]\[A-Za-z0-9_\.-\]\*/ },
    { rule: 'resource link', re: /['"]javascript['"],\s*['"]vbscript['"]/ },
    { rule: 'resource link', re: /data:image\\\/\(png\|jpeg\|gif\|webp\);/ },
    { rule: 'approval modes', re: /['"]ask_all['"]\s*[,|]/ },
    { rule: 'approval modes', re: /['"]ask['"][^'"\n]{0,40}['"]always_allow['"]/ },
  ];
  /** file → the rules it may spell out, and why. Keep it short. */
  const ALLOWED: Record<string, { rules: string[]; why: string }> = {
    'main/mcp/apps/csp.ts': { rules: ['loopback'], why: 'CSP origins a view may name: loopback literals only, never *.localhost (where other views live)' },
    'main/mcp/catalog/runtime-guard.ts': { rules: ['loopback', 'server name'], why: "docker's -p bind address 127.0.0.1; docker volume names share the server-name characters" },
  };

  function sources(dir: string): string[] {
    const out: string[] = [];
    for (const e of readdirSync(path.join(ROOT, dir))) {
      const rel = `${dir}/${e}`;
      if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...sources(rel));
      else if (/\.tsx?$/.test(e)) out.push(rel);
    }
    return out;
  }

  it('each rule is spelled out only in preload/contract/rules (and the listed places)', () => {
    const files = ['main', 'renderer/src', 'preload'].flatMap(sources).filter((f) => !f.startsWith(RULES_DIR) && !f.includes('/i18n/'));
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const f of files) {
      const lines = readFileSync(path.join(ROOT, f), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^\s*(\*|\/\/)/.test(line)) return; // comments may name the rule
        for (const s of SIGNS) if (s.re.test(line) && !ALLOWED[f]?.rules.includes(s.rule)) found.push(`${f}:${i + 1} (${s.rule}): ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('the scan sees each rule where it is defined', () => {
    const rules = sources(RULES_DIR.slice(0, -1)).map((f) => readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
    const seen = new Set(SIGNS.filter((s) => s.re.test(rules)).map((s) => s.rule));
    expect([...seen].sort()).toEqual(['approval modes', 'loopback', 'resource link', 'server name']);
  });
});
