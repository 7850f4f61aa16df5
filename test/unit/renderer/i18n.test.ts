/**
 * The UI's languages (renderer/src/i18n): every English key has a Chinese string and no extra
 * ones, plural and interpolation forms resolve, the OS locale maps to a language, and errors from
 * main are shown by their code (English: main's message as is; Chinese: a translated sentence for
 * generic codes, a translated lead + main's detail for specific ones).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../../../renderer/src/i18n/en.js';
import { zhCN } from '../../../renderer/src/i18n/zh-CN.js';
import { i18next, languageForLocales, t } from '../../../renderer/src/i18n/index.js';
import { describeError, describeImportSkip, describeModelError } from '../../../renderer/src/i18n/errors.js';
import type { AppWarning, ImportSkip, IpcError, ModelErrorDetail } from '../../../preload/contract/index.js';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Trans } from 'react-i18next';
import { Fill } from '../../../renderer/src/i18n/Fill.js';
import { factSentences } from '../../../renderer/src/i18n/error-facts.js';
import { said, SentencesView, sentencesText, type Sentence } from '../../../renderer/src/i18n/sentence.js';
import { appWarningSentences } from '../../../renderer/src/i18n/app-warnings.js';
import { ROOT } from '../helpers.js';

/** Every leaf key of a strings object, dotted. */
function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));
}
const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('resources', () => {
  it('zh-CN has exactly the keys of en, and no Chinese string is left empty or in English', () => {
    expect(keys(zhCN).sort()).toEqual(keys(en).sort());
    const zh = zhCN as unknown as Record<string, Record<string, unknown>>;
    for (const k of keys(zhCN)) {
      const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], zh) as string;
      expect(v.trim(), k).not.toBe('');
    }
  });

  it('every English plural key has its singular and plural form, and the singular is worded as one', () => {
    const all = new Set(keys(en));
    const plural = [...all].filter((k) => /_(one|other)$/.test(k));
    expect(plural.length).toBeGreaterThan(0);
    const value = (k: string): string => k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], en) as string;
    for (const k of plural) {
      const base = k.replace(/_(one|other)$/, '');
      expect(all.has(`${base}_one`) && all.has(`${base}_other`), `${base} needs _one and _other`).toBe(true);
      // English has two forms: a `_one` that reads like its `_other` is plural wording for one.
      if (k.endsWith('_one')) expect(value(k), k).not.toBe(value(`${base}_other`));
    }
    expect(tt('chat.toolsAvailable', { count: 1 })).toBe('1 tool available');
    expect(tt('chat.toolsAvailable', { count: 0 })).toBe('0 tools available');
    expect(tt('chat.toolsAvailable', { count: 5 })).toBe('5 tools available');
    expect(tt('sidebar.messages', { count: 1 })).toBe('1 message');
    expect(tt('sidebar.messages', { count: 2 })).toBe('2 messages');
    expect(tt('servers.tools', { count: 1 })).toBe('1 tool');
    expect(tt('servers.tools', { count: 3 })).toBe('3 tools');
    expect(tt('chat.showEarlier', { count: 1, hidden: 1 })).toBe('Show 1 earlier entry (1 not shown)');
    expect(tt('chat.showEarlier', { count: 40, hidden: 80 })).toBe('Show 40 earlier entries (80 not shown)');
    expect(tt('sampling.sends', { count: 1 })).toBe('It sends the following (up to 1 token of answer goes back to the server):');
    // Without a count the button's own key is used, not a plural form.
    expect(tt('servers.tools')).toBe('Tools');
  });

  it('plurals and interpolation resolve in both languages', async () => {
    expect(tt('profile.connected', { count: 1 })).toBe('Connected. The provider lists 1 model.');
    expect(tt('profile.connected', { count: 3 })).toBe('Connected. The provider lists 3 models.');
    expect(tt('servers.confirmRemove', { name: 'files' })).toBe('Remove server "files"?');
    await i18next.changeLanguage('zh-CN');
    expect(tt('profile.connected', { count: 3 })).toBe('已连接。提供方列出了 3 个模型。');
    expect(tt('chat.toolsAvailable', { count: 1 })).toBe('1 个工具可用');
    expect(tt('chat.toolsAvailable', { count: 5 })).toBe('5 个工具可用');
    expect(tt('sidebar.messages', { count: 1 })).toBe('1 条消息');
    expect(tt('servers.tools', { count: 1 })).toBe('1 个工具');
    // A value is never read as markup or escaped twice.
    expect(tt('servers.confirmRemove', { name: '<b>&' })).toBe('移除服务器“<b>&”？');
  });
});

/** Every leaf string of a strings object with its dotted key. */
function entries(o: object, prefix = ''): [string, string][] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : entries(v as object, `${prefix}${k}.`)));
}
const CJK = '\\u3000-\\u303f\\u4e00-\\u9fff\\uff00-\\uffef';

describe('Chinese wording is consistent (docs/ARCHITECTURE.md "Languages")', () => {
  const zh = entries(zhCN);
  const zhOf = new Map(zh);

  it('one term per English term: a word that means the same thing is always the same Chinese word', () => {
    // English term → the one Chinese term; identifiers (server.json, {{slots}}, package names) are left out first.
    const terms: [RegExp, string][] = [
      [/\bregistry\b/i, '注册中心'],
      [/\bsecrets?\b/i, '密钥'],
      [/\bapprov/i, '审批'],
      [/\bservers?\b/i, '服务器'],
      [/\btools?\b/i, '工具'],
      [/\bviews?\b/i, '视图'],
      [/\bconversations?\b/i, '对话'],
      [/\bbundles?\b/i, '扩展包'],
      [/\bprompts?\b/i, '提示词'],
      [/\bresources?\b/i, '资源'],
    ];
    const prose = (s: string): string =>
      s
        // A package's own registry (npm, PyPI) is a 软件源, not the MCP Registry.
        .replace(/\{\{registry_type\}\} registry/g, '')
        .replace(/\{\{[^}]*\}\}/g, '')
        .replace(/\bserver\.json\b/g, '')
        .replace(/\S*[@/]\S*/g, '');
    for (const [key, english] of entries(en)) {
      for (const [term, chinese] of terms) if (term.test(prose(english))) expect(zhOf.get(key), `${key} (${term.source})`).toContain(chinese);
    }
    // …and the other renderings are gone.
    const others = ['注册表', '机密', '秘密', '批准', '服务端', '会话', '聊天', '捆绑包'];
    for (const [key, text] of zh) for (const w of others) expect(text, `${key}: ${w}`).not.toContain(w);
  });

  it('one register: the user is 你, never 您', () => {
    expect(zh.some(([, text]) => text.includes('你'))).toBe(true);
    for (const [key, text] of zh) expect(text, key).not.toContain('您');
  });

  it('Chinese text uses full-width brackets （）, not ( ) next to Chinese characters or slots', () => {
    const halfNextToChinese = new RegExp(`[${CJK}]\\s*[()]|[()]\\s*[${CJK}]|\\}\\}\\s*\\(|\\)\\s*\\{\\{`);
    for (const [key, text] of zh) expect(text, key).not.toMatch(halfNextToChinese);
    expect(zh.filter(([, text]) => /（/.test(text)).length).toBeGreaterThan(10);
  });

  it('no component wraps translated text in half-width brackets or puts a half-width colon after it (the sentence, in its language, does)', () => {
    const dir = path.join(ROOT, 'renderer/src/components');
    // `{t('x')} ({n})`, `} ({`, `) ({`, `` ` (${t(` ``: brackets built around a translation in JSX or a template.
    // `{t('x')}: ` and `${t('x')}: `: a half-width colon after a translation (use `common.colon`).
    const built = /\}\s\(\{|>\s*\(\{t\(|\s\(\$\{t\(|\)\s\(\{|\)\}:|\)\}:\s\$\{/;
    const files = readdirSync(dir).filter((f) => f.endsWith('.tsx'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .forEach((line, i) => expect(line, `${f}:${i + 1}`).not.toMatch(built));
    }
  });

  it('the bracket sentences render with full-width brackets in Chinese and plain ones in English', async () => {
    expect(tt('protocol.rootsServerCount', { title: tt('protocol.rootsServerTitle'), n: 2 })).toBe('Root folders (2)');
    await i18next.changeLanguage('zh-CN');
    expect(tt('protocol.rootsServerCount', { title: tt('protocol.rootsServerTitle'), n: 0 })).toBe('根目录（0）');
    expect(tt('catalog.optionNotInstallable')).toBe('（无法安装）');
    expect(tt('chat.profileOption', { name: 'A', model: 'gpt' })).toBe('A（gpt）');
    expect(`${tt('catalog.reason')}${tt('common.colon')}`).toBe('原因：');
  });
});

describe('sentences with an element in them', () => {
  it('the element gets its text in both languages (a tag name that is an HTML void element, like <link>, would leave it empty)', async () => {
    const render = (key: 'chat.setupModel' | 'servers.noBrowser') =>
      renderToStaticMarkup(createElement(Trans, { i18nKey: key, components: { action: createElement('button') } }));
    expect(render('chat.setupModel')).toBe('Set up a model first in <button>Settings → Model</button>.');
    expect(render('servers.noBrowser')).toBe('If no browser tab opened, <button>open the sign-in page</button>.');
    await i18next.changeLanguage('zh-CN');
    expect(render('chat.setupModel')).toBe('请先在<button>设置 → 模型</button>中配置模型。');
    expect(render('servers.noBrowser')).toBe('如果没有打开浏览器标签页，请<button>打开登录页面</button>。');
  });
});

describe('Fill: data in a translated sentence', () => {
  it('puts each slot where its placeholder is, in both word orders', async () => {
    const render = () => renderToStaticMarkup(createElement(Fill, { k: 'approval.wantsToRun', slots: { tool: createElement('i', null, 'write_file'), server: createElement('b', null, 'files') } }));
    expect(render()).toBe('· the model wants to run <i>write_file</i> of server <b>files</b>');
    await i18next.changeLanguage('zh-CN');
    expect(render()).toBe('· 模型想要运行服务器 <b>files</b> 的 <i>write_file</i>');
  });

  it('data stays text: markup and placeholders in a title are neither parsed nor filled', () => {
    const title = '<strong onclick="x()">hi</strong> {{server}}';
    const html = renderToStaticMarkup(createElement(Fill, { k: 'approval.elsewhere', slots: { server: 'files', tool: 'write_file', conversation: title } }));
    expect(html).toBe('files wants to run write_file in “&lt;strong onclick=&quot;x()&quot;&gt;hi&lt;/strong&gt; {{server}}”.');
  });
});

describe('language from the OS locale', () => {
  it('zh* → zh-CN, anything else → en, the first locale decides', () => {
    expect(languageForLocales(['zh-CN'])).toBe('zh-CN');
    expect(languageForLocales(['zh-TW', 'en'])).toBe('zh-CN');
    expect(languageForLocales(['ZH'])).toBe('zh-CN');
    expect(languageForLocales(['en-GB', 'zh-CN'])).toBe('en');
    expect(languageForLocales(['de-DE'])).toBe('en');
    expect(languageForLocales([])).toBe('en');
  });
});

describe('errors from main', () => {
  it('English: main’s message unchanged, whatever the code', () => {
    expect(describeError({ code: 'busy', message: 'A run is already going in this conversation.' })).toBe('A run is already going in this conversation.');
    expect(describeError({ code: 'conflict', message: 'A server named "x" already exists.' })).toBe('A server named "x" already exists.');
  });

  it('Chinese: generic codes get the translated sentence; specific ones a translated lead and main’s detail', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(describeError({ code: 'busy', message: 'Busy.' })).toBe('应用正在处理此事，请稍后再试。');
    expect(describeError({ code: 'approval_invalid', message: 'No such approval.' })).toBe('此审批已不在等待中（已被回答或撤回）。');
    expect(describeError({ code: 'internal', message: 'oops' })).toBe('应用核心出了问题。');
    expect(describeError({ code: 'write_failed', message: 'EACCES' })).toBe('无法写入文件。');
    expect(describeError({ code: 'conflict', message: 'A server named "x" already exists.' })).toBe('与现有内容冲突：A server named "x" already exists.');
    expect(describeError({ code: 'invalid_input', message: 'name: too long', field: 'name' })).toBe('输入未被接受：name: too long');
    // A code this build does not know falls back to main's message.
    expect(describeError({ code: 'brand_new' as never, message: 'Something new.' })).toBe('Something new.');
  });

  it('an error with facts is worded by them in every language, never by main’s English: a command not on the PATH, a failed edit, a taken name, pasted text that is no config', async () => {
    const notFound: IpcError = {
      code: 'command_not_found',
      message: 'Command "nope" was not found on PATH. Install it or give its full path.',
      field: 'command',
      fact: { kind: 'server_failure', failure: { kind: 'spawn_failed', command: 'nope', code: 'not_on_path', server_message: null }, stderr: [] },
    };
    const edit: IpcError = {
      code: 'start_failed',
      message: 'The server did not start with the new settings, so they were not saved: …',
      fact: { kind: 'server_failure', failure: { kind: 'exited', running: false, exit: { code: 1, signal: null }, server_message: null }, stderr: ['Error: Cannot find module'] },
    };
    const taken: IpcError = { code: 'conflict', message: 'A server named "Files" already exists (names that differ only in case are the same).', field: 'name', fact: { kind: 'name_taken', name: 'files', existing: 'Files', why: 'same' } };
    const notObject: IpcError = { code: 'invalid_input', message: 'The text cannot be imported: the file is not a JSON object.', field: 'json', fact: { kind: 'import', problem: 'not_object' } };
    expect(describeError(notFound)).toBe('The command nope was not found. Install it, or give its full path.');
    expect(describeError(edit)).toBe('The server did not start with the new settings, so they were not saved. The server exited before it finished starting. The process exited with code 1.');
    expect(describeError(taken)).toBe('A server named “Files” already exists (names that differ only in case, or in “.” and “_”, are the same): choose another name.');
    expect(describeError(notObject)).toBe('The pasted text is not a JSON object: paste {"servers": …} or {"mcpServers": …}.');
    await i18next.changeLanguage('zh-CN');
    expect(describeError(notFound)).toBe('找不到命令 nope。请安装它，或填写它的完整路径。');
    expect(describeError(edit)).toBe('服务器未能以新设置启动，因此没有保存这些设置。服务器在启动完成之前就退出了。进程以代码 1 退出。');
    expect(describeError(taken)).toBe('已存在名为“Files”的服务器（仅大小写不同，或仅“.”与“_”不同的名称视为相同）：请换一个名称。');
    expect(describeError(notObject)).toBe('粘贴的文本不是 JSON 对象：请粘贴服务器配置 {"servers": …} 或 {"mcpServers": …}。');
    expect(describeError({ code: 'invalid_input', message: 'The text is not valid JSON.', field: 'json', fact: { kind: 'import', problem: 'not_json' } })).toBe('粘贴的文本不是有效的 JSON。');
    expect(describeError({ code: 'conflict', message: 'Server "notes" is not ready.', fact: { kind: 'server_unavailable', server: 'notes', why: 'not_ready' } })).toBe('服务器“notes”尚未就绪。');
    expect(describeError({ code: 'invalid_input', message: 'Server "notes" refused the request: no such prompt', fact: { kind: 'server_refused', server: 'notes', said: 'no such prompt' } })).toBe('服务器“notes”拒绝了请求：no such prompt');
    // A config field's refusal (an add, an edit, an imported entry) by its issue.
    expect(describeError({ code: 'invalid_input', message: 'url: The URL must start with http:// or https://', field: 'url', issue: { code: 'custom', path: ['url'], rule: 'http_scheme' } })).toBe('地址必须以 http:// 或 https:// 开头。');
    // A folder list's own check.
    expect(describeError({ code: 'invalid_input', message: '"notes" is not an absolute path.', field: 'roots', issue: { code: 'custom', path: ['roots'], rule: 'absolute_path' } })).toBe('根目录必须是从磁盘顶层开始的完整路径（例如 /home/you/notes）。');
  });

  /** An error with `fact` as the window words it: its text, and its elements with the data marked. */
  const worded = (fact: IpcError['fact'], code: IpcError['code'] = 'invalid_input'): { text: string; html: string } => ({
    text: describeError({ code, message: 'main’s English, for logs', fact }),
    html: renderToStaticMarkup(createElement(SentencesView, { sentences: factSentences(fact!, code) })),
  });
  const marked = (v: string): string => `<code class="mono server-data" translate="no" data-testid="server-data">${v}</code>`;
  const saidMarked = (v: string): string => `<span class="said" translate="no" data-testid="said">${v}</span>`;

  it('an error’s facts as elements: names marked as data, a server’s own words marked as its, in both languages', async () => {
    const refused = { kind: 'server_refused', server: 'notes', said: 'no such prompt' } as const;
    expect(worded(refused).html).toBe(`The server “${marked('notes')}” refused the request: ${saidMarked('no such prompt')}`);
    await i18next.changeLanguage('zh-CN');
    expect(worded(refused).html).toBe(`服务器“${marked('notes')}”拒绝了请求：${saidMarked('no such prompt')}`);
    expect(worded({ kind: 'name_taken', name: 'files', existing: 'Files', why: 'same' }, 'conflict').html).toBe(`已存在名为“${marked('Files')}”的服务器（仅大小写不同，或仅“.”与“_”不同的名称视为相同）：请换一个名称。`);
    expect(worded({ kind: 'server_unavailable', server: 'notes', why: 'not_running' }, 'not_found').text).toBe('服务器“notes”没有在运行。');
  });

  it('prompts and resources: a prompt not listed, missing arguments, a read refused, a resource too large or empty to save — names and URIs marked as data', async () => {
    const unknown = { kind: 'prompt_unknown', server: 'notes', prompt: 'digest' } as const;
    const args = { kind: 'prompt_arguments' as const, server: 'notes', prompt: 'brief', missing: ['topic', 'tone'] };
    const scheme = { kind: 'resource_refused', server: 'notes', uri: 'https://example.com/', why: 'scheme' } as const;
    const notListed = { kind: 'resource_refused', server: 'notes', uri: 'file:///etc/passwd', why: 'not_listed' } as const;
    const large = { kind: 'resource_too_large', size_bytes: 60_000_000, limit_bytes: 50_000_000 } as const;
    expect(worded(unknown, 'not_found').text).toBe('The server “notes” has no prompt named “digest” (any more).');
    expect(worded(args).text).toBe('The prompt “brief” needs a value for: topic, tone.');
    expect(worded(scheme, 'forbidden').text).toBe('“https://example.com/” is not read through a server: addresses of this kind never are.');
    expect(worded(notListed, 'forbidden').text).toBe('“file:///etc/passwd” is not one of the resources of the server “notes”, so it is not read.');
    expect(worded(large).text).toBe('The resource is 60 MB, more than the 50 MB that can be saved; it was not saved.');
    expect(worded({ kind: 'resource_empty' }).text).toBe('The resource has no content to save.');
    await i18next.changeLanguage('zh-CN');
    expect(worded(unknown, 'not_found').text).toBe('服务器“notes”没有（或不再有）名为“digest”的提示词。');
    expect(worded(args).html).toBe(`提示词“${marked('brief')}”需要填写：${marked('topic，tone')}。`);
    expect(worded(scheme, 'forbidden').text).toBe('“https://example.com/”不会通过服务器读取：这类地址从不通过服务器读取。');
    expect(worded(notListed, 'forbidden').html).toBe(`“${marked('file:///etc/passwd')}”不是服务器“${marked('notes')}”的资源，因此没有读取。`);
    expect(worded(large).text).toBe('该资源大小为 60 MB，超过可保存的上限 50 MB，未保存。');
    expect(worded({ kind: 'resource_empty' }).text).toBe('该资源没有可保存的内容。');
  });

  it('a server without OAuth sign-in or without log levels: its name marked as data', async () => {
    expect(worded({ kind: 'no_sign_in', server: 'files' }).text).toBe('The server “files” does not use OAuth sign-in.');
    expect(worded({ kind: 'no_log_levels', server: 'files' }).text).toBe('The server “files” does not offer log levels.');
    await i18next.changeLanguage('zh-CN');
    expect(worded({ kind: 'no_sign_in', server: 'files' }).html).toBe(`服务器“${marked('files')}”不使用 OAuth 登录。`);
    expect(worded({ kind: 'no_log_levels', server: 'files' }).html).toBe(`服务器“${marked('files')}”不提供日志级别。`);
  });

  it('a rename that could not move a record, the app shutting down, an edit another action overtook', async () => {
    const rename = { kind: 'rename_failed', server: 'files', to: 'docs', record: 'pins', said: 'EISDIR: illegal operation on a directory' } as const;
    expect(worded(rename, 'write_failed').text).toBe('The server “files” was not renamed to “docs”: its pinned tool definitions could not be moved. Nothing was changed. The system said: EISDIR: illegal operation on a directory');
    expect(worded({ kind: 'shutting_down' }, 'start_failed').text).toBe('The app is shutting down, so nothing more is started or changed.');
    expect(worded({ kind: 'edit_superseded', server: 'files' }, 'conflict').text).toBe('The server “files” was changed or removed while the edit was starting, so the edit was not saved.');
    await i18next.changeLanguage('zh-CN');
    expect(worded(rename, 'write_failed').html).toBe(`服务器“${marked('files')}”未能重命名为“${marked('docs')}”：无法移动它的已固定的工具定义。没有做任何更改。系统提示：${saidMarked('EISDIR: illegal operation on a directory')}`);
    expect(worded({ kind: 'shutting_down' }, 'start_failed').text).toBe('应用正在关闭，不再启动或更改任何内容。');
    expect(worded({ kind: 'edit_superseded', server: 'files' }, 'conflict').text).toBe('服务器“files”在编辑启动期间被更改或移除，因此没有保存这次编辑。');
  });

  it('a sign-in that did not finish: by its code, the OAuth error code and URLs marked as data, the authorization server’s words as sent', async () => {
    const denied = { kind: 'sign_in', failure: { code: 'denied', oauth_error: 'access_denied', said: 'The user said no' } } as const;
    const refused = { kind: 'sign_in', failure: { code: 'refused', step: 'request', oauth_error: 'invalid_grant', said: null } } as const;
    const port = { kind: 'sign_in', failure: { code: 'port_in_use', port: 8080 } } as const;
    const unsafe = { kind: 'sign_in', failure: { code: 'unsafe_url', what: 'endpoint', field: 'token_endpoint', url: 'http://as.example' } } as const;
    const large = { kind: 'sign_in', failure: { code: 'fetch_refused', why: 'too_large', url: 'https://as.example', max_bytes: 1048576 } } as const;
    const failed = { kind: 'sign_in', failure: { code: 'failed', said: 'fetch failed' } } as const;
    expect(worded(denied, 'sign_in_denied').text).toBe('The authorization server refused the sign-in (access_denied). It said: “The user said no”');
    expect(worded(refused, 'oauth_failed').text).toBe('The authorization server refused a request of the sign-in (invalid_grant).');
    expect(worded(port, 'port_in_use').text).toBe('Port 8080 on this computer is in use by another program, so sign-in cannot receive the browser’s answer there.');
    expect(worded(unsafe, 'unsafe_authorization_url').text).toBe('The authorization server’s token_endpoint (http://as.example) is not an https:// address (or http:// to this computer), so it was not used.');
    expect(worded(large, 'oauth_failed').text).toBe('The answer from https://as.example was larger than 1,048,576 bytes, so sign-in stopped.');
    expect(worded(failed, 'oauth_failed').text).toBe('Sign-in failed. What happened: fetch failed');
    expect(worded({ kind: 'sign_in', failure: { code: 'timeout', seconds: 300 } }, 'sign_in_timeout').text).toBe('Sign-in did not finish within 300 s and was stopped.');
    await i18next.changeLanguage('zh-CN');
    expect(worded(denied, 'sign_in_denied').html).toBe(`授权服务器拒绝了登录（${marked('access_denied')}）。它的说明：“${saidMarked('The user said no')}”`);
    expect(worded(refused, 'oauth_failed').text).toBe('授权服务器拒绝了登录中的一个请求（invalid_grant）。');
    expect(worded(port, 'port_in_use').html).toBe(`这台计算机上的端口 ${marked('8080')} 已被其他程序占用，登录无法在那里接收浏览器的答复。`);
    expect(worded(unsafe, 'unsafe_authorization_url').text).toBe('授权服务器的 token_endpoint（http://as.example）不是 https:// 地址（也不是指向这台计算机的 http:// 地址），因此没有使用。');
    expect(worded(large, 'oauth_failed').text).toBe('来自 https://as.example 的答复超过 1,048,576 字节，因此登录已停止。');
    expect(worded(failed, 'oauth_failed').text).toBe('登录失败。具体情况：fetch failed');
    expect(worded({ kind: 'sign_in', failure: { code: 'cancelled' } }, 'sign_in_cancelled').text).toBe('登录已取消。');
    expect(worded({ kind: 'sign_in', failure: { code: 'needs_browser', reason: 'needs_reauth' } }, 'oauth_failed').text).toBe('已保存的登录被拒绝，请重新登录。');
  });

  it('model profiles and conversations: an unknown profile, a taken name, no model, an unknown or busy conversation, a message that cannot be edited, an empty title, a file that cannot be written', async () => {
    expect(worded({ kind: 'profile_name_taken', name: 'Local' }, 'conflict').text).toBe('A model profile named “Local” exists already: choose another name.');
    expect(worded({ kind: 'write_failed', path: '/tmp/x.md', errno: 'EACCES' }, 'write_failed').text).toBe('Could not write /tmp/x.md: permission denied.');
    expect(worded({ kind: 'write_failed', path: '/tmp/x.md', errno: 'EIO' }, 'write_failed').text).toBe('Could not write /tmp/x.md. The system said EIO.');
    expect(describeError({ code: 'invalid_input', message: 'Enter a title.', field: 'title', issue: { code: 'custom', path: ['title'], rule: 'required' } })).toBe('The title is required.');
    await i18next.changeLanguage('zh-CN');
    expect(worded({ kind: 'profile_unknown' }, 'not_found').text).toBe('该模型配置不存在（或已不存在）。');
    expect(worded({ kind: 'profile_name_taken', name: 'Local' }, 'conflict').html).toBe(`已有名为“${marked('Local')}”的模型配置：请换一个名称。`);
    expect(worded({ kind: 'no_model' }, 'not_configured').text).toBe('请先在“设置 → 模型”中配置模型。');
    expect(worded({ kind: 'conversation_unknown' }, 'not_found').text).toBe('该对话不存在（可能已被删除）。');
    expect(worded({ kind: 'conversation_busy' }, 'busy').text).toBe('这个对话仍在回答。请等它完成或按“停止”，然后再发送。');
    expect(worded({ kind: 'not_editable' }, 'conflict').text).toBe('只能编辑你发送的最后一条消息。');
    expect(worded({ kind: 'write_failed', path: '/tmp/x.md', errno: 'ENOSPC' }, 'write_failed').html).toBe(`无法写入 ${marked('/tmp/x.md')}：磁盘已满。`);
    expect(worded({ kind: 'write_failed', path: '/tmp/x.md', errno: 'EIO' }, 'write_failed').html).toBe(`无法写入 ${marked('/tmp/x.md')}。系统提示 ${marked('EIO')}。`);
    expect(describeError({ code: 'invalid_input', message: 'Enter a title.', field: 'title', issue: { code: 'custom', path: ['title'], rule: 'required' } })).toBe('标题为必填项。');
    expect(describeError({ code: 'invalid_input', message: 'Enter a provider and a base URL first.', field: 'base_url', issue: { code: 'custom', path: ['base_url'], rule: 'required' } })).toBe('基础 URL为必填项。');
  });

  it('a refused answer of an install form: the field’s label marked as data, choices and bounds', async () => {
    const choice = { kind: 'catalog_input', problem: 'choice', label: 'Mode', choices: ['fast', 'slow'], min: null, max: null } as const;
    const range = { kind: 'catalog_input', problem: 'range', label: 'Port', choices: [], min: 1024, max: 65535 } as const;
    expect(worded({ ...choice, choices: [...choice.choices] }).text).toBe('Mode must be one of: fast, slow.');
    expect(worded({ ...range, choices: [] }).text).toBe('Port must be a number from 1,024 to 65,535.');
    await i18next.changeLanguage('zh-CN');
    expect(worded({ ...choice, choices: [...choice.choices] }).html).toBe(`${marked('Mode')}必须是以下之一：${marked('fast，slow')}。`);
    expect(worded({ ...range, choices: [] }).text).toBe('Port必须是 1,024 到 65,535 之间的数字。');
    expect(worded({ kind: 'catalog_input', problem: 'url_scheme', label: null, choices: [], min: null, max: null }).text).toBe('远程服务器只接受 https:// 地址（或指向这台计算机的 http:// 地址）。');
  });

  it('a fact this window does not know falls back to the lead and main’s message', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(describeError({ code: 'conflict', message: 'Something new.', fact: { kind: 'brand_new' } as never })).toBe('与现有内容冲突：Something new.');
  });

  it('app-wide warnings by code: the server list, a missing stored secret, the default root folders, a declined link — paths, names and the system’s words marked', async () => {
    const words = (w: AppWarning): { text: string; html: string } => ({
      text: sentencesText(appWarningSentences(w)),
      html: renderToStaticMarkup(createElement(SentencesView, { sentences: appWarningSentences(w) })),
    });
    const skipped: AppWarning = { code: 'config_skipped', entries: [{ name: 'ftp', why: { code: 'invalid_entry', issue: { code: 'custom', path: ['url'], rule: 'http_scheme' } }, reason: 'url: …' }] };
    const missing: AppWarning = { code: 'secret_missing', server: 'gh', secret: { kind: 'env', name: 'GITHUB_TOKEN' } };
    expect(words({ code: 'config_unusable', file: '/s/mcp_servers.json', problem: 'not_json' }).text).toBe(
      'The server list /s/mcp_servers.json is not valid JSON, so no servers were loaded; the file was kept and will be moved aside, not overwritten, when the list is next saved.',
    );
    expect(words(skipped).text).toBe('Some servers in the server list could not be used; they stay in the file as they were. Skipped ftp: The address must start with http:// or https://.');
    expect(words(missing).text).toBe('The stored value of the environment variable GITHUB_TOKEN of the server “gh” is missing from the secret store: enter it again (Edit).');
    expect(words({ code: 'link_declined', server: 'fx' }).text).toBe('The server “fx” asked to open a link that is not allowed (only https:// links, or http:// links to this computer, are opened), so it was declined.');
    await i18next.changeLanguage('zh-CN');
    expect(words({ code: 'config_unreadable', file: '/s/mcp_servers.json', said: 'EACCES: permission denied' }).html).toBe(`无法读取服务器列表 ${marked('/s/mcp_servers.json')}，因此没有加载任何服务器；该文件保持原样。系统提示：${saidMarked('EACCES: permission denied')}`);
    expect(words(skipped).text).toBe('服务器列表中有些服务器无法使用；它们在文件中保持原样。已跳过 ftp：地址必须以 http:// 或 https:// 开头。');
    expect(words(missing).html).toBe(`密钥存储中缺少服务器“${marked('gh')}”的环境变量 ${marked('GITHUB_TOKEN')} 的已保存值：请重新填写（编辑）。`);
    expect(words({ code: 'secret_missing', server: 'gh', secret: { kind: 'token' } }).text).toBe('密钥存储中缺少服务器“gh”已保存的 Bearer 令牌：请重新填写（编辑）。');
    expect(words({ code: 'config_set_aside', kept_as: '/s/mcp_servers.json.corrupt-1' }).text).toBe('无法使用的服务器列表已移到 /s/mcp_servers.json.corrupt-1。');
    expect(words({ code: 'roots_unreadable', file: '/s/roots.json', said: 'Unexpected token' }).text).toBe('无法读取默认根目录（/s/roots.json），因此没有使用它们。系统提示：Unexpected token');
    expect(words({ code: 'link_declined', server: 'fx' }).text).toBe('服务器“fx”请求打开一个不允许的链接（只会打开 https:// 链接，或指向这台计算机的 http:// 链接），因此已拒绝。');
  });

  it('a run whose end could not be saved, a choice on a tool card that could not be saved: the window’s sentences, the system’s words marked as sent', async () => {
    // As components/RunNote.tsx and ToolCard.tsx put them together.
    const html = (sentences: Sentence[]): string => renderToStaticMarkup(createElement(SentencesView, { sentences }));
    const full = { k: 'errors.systemSaid', slots: { said: said('SQLITE_FULL: database or disk is full') } } as const;
    expect(html([{ k: 'runNote.saveFailed', slots: {} }, full])).toBe(`Could not save this conversation. The system said: ${saidMarked('SQLITE_FULL: database or disk is full')}`);
    await i18next.changeLanguage('zh-CN');
    expect(html([{ k: 'runNote.saveFailed', slots: {} }, full])).toBe(`无法保存这个对话。系统提示：${saidMarked('SQLITE_FULL: database or disk is full')}`);
    expect(html([{ k: 'tool.notSaved_always_allow', slots: {} }, full])).toBe(`已允许这次调用，但无法保存“始终允许”：下次还会再问你。系统提示：${saidMarked('SQLITE_FULL: database or disk is full')}`);
  });

  it('why an import skips an entry, by its code: English and 简体中文 alike', async () => {
    const skips: ImportSkip[] = [
      { code: 'invalid_entry', issue: { code: 'custom', path: ['command'], rule: 'required' } },
      { code: 'invalid_entry', issue: { code: 'custom', path: ['url'], rule: 'http_scheme' } },
      { code: 'given_twice', map: 'env', key: 'API_KEY' },
      { code: 'exists' },
      { code: 'command_not_found', command: 'uvx' },
    ];
    expect(skips.map(describeImportSkip)).toEqual([
      'The command is required.',
      'The address must start with http:// or https://.',
      'It gives the environment variable “API_KEY” twice.',
      'A server of that name exists (tick “replace servers that exist” to replace it).',
      'The command uvx was not found: install it, or give its full path.',
    ]);
    await i18next.changeLanguage('zh-CN');
    expect(skips.map(describeImportSkip)).toEqual(['命令为必填项。', '地址必须以 http:// 或 https:// 开头。', '它两次填写了环境变量“API_KEY”。', '已存在同名的服务器（勾选“替换已存在的服务器”即可替换）。', '找不到命令 uvx：请安装它，或填写它的完整路径。']);
    expect(tt('importExport.skippedOne', { name: 'x', reason: describeImportSkip(skips[0]!) })).toBe('已跳过 x：命令为必填项。');
  });

  it('model endpoint failures by code and facts, in both languages: the sentence, what happened (network code, HTTP status, a redirect); never main’s English', async () => {
    const none: ModelErrorDetail = { http_status: null, system_code: null, redirected: false, provider_message: null };
    expect(describeModelError('unreachable', { ...none, system_code: 'ECONNREFUSED' })).toBe('Nothing answers at the model’s base URL. Check the address and port, and that the server is running. What happened: the connection was refused.');
    expect(describeModelError('not_found', { ...none, http_status: 404, provider_message: 'model x does not exist' })).toBe(
      'The model endpoint says “not found”: check the base URL (OpenAI-compatible servers usually end in /v1) and the model name (Test connection lists the models). What happened: HTTP 404.',
    );
    expect(describeModelError('not_found', { ...none, http_status: 301, redirected: true })).toContain('The base URL redirects elsewhere: enter the final address. What happened: HTTP 301.');
    // An older notice without its detail still reads as a sentence.
    expect(describeModelError('rate_limited', undefined)).toBe('The model provider is limiting requests (too many, or no quota left). Wait a moment and try again, or check your plan.');
    await i18next.changeLanguage('zh-CN');
    expect(describeModelError('unreachable', { ...none, system_code: 'ECONNREFUSED' })).toBe('模型的基础 URL 没有响应。请检查地址和端口，以及服务器是否在运行。具体情况：连接被拒绝。');
    expect(describeModelError('not_found', { ...none, http_status: 404 })).toBe('模型接口返回“未找到”：请检查基础 URL（兼容 OpenAI 的服务器通常以 /v1 结尾）和模型名称（“测试连接”会列出可用模型）。具体情况：HTTP 404。');
  });

  it('Chinese: a message this window made itself is already translated and shown as is', async () => {
    await i18next.changeLanguage('zh-CN');
    expect(describeError({ code: 'internal', message: '与应用核心的连接已断开。', said_here: true } as never)).toBe('与应用核心的连接已断开。');
  });
});
