/**
 * Tool discovery (main/chat/discovery): the BM25 ranking over names and descriptions, which tools
 * a run offers when not all fit (cap and token share), what a search brings into the next step,
 * and that tools the user disabled are never found.
 */
import { describe, expect, it } from 'vitest';
import { Bm25Index, terms } from '../../../../main/chat/discovery/bm25.js';
import { ToolOffer } from '../../../../main/chat/discovery/tool-offer.js';
import { searchToolSpec } from '../../../../main/chat/discovery/search-tool.js';
import type { RegisteredTool } from '../../../../main/mcp/adapter.js';
import { toolDefinitionTokens } from '../../../../preload/contract/rules/index.js';

const VERBS = ['create', 'read', 'update', 'delete', 'list'];
const TOPICS = ['calendar', 'email', 'file', 'database', 'git', 'issue'];

function tool(server: string, name: string, description: string): RegisteredTool {
  return { name: `${server}__${name}`, server, original_name: name, description, input_schema: { type: 'object', properties: { id: { type: 'string' } } }, title: null, annotations: {} };
}

/** `n` tools over `servers` servers, plus `weather__forecast`. */
function many(n: number, servers = 3): RegisteredTool[] {
  const out: RegisteredTool[] = [];
  for (let j = 0; j < n; j++) {
    const verb = VERBS[j % VERBS.length]!;
    const topic = TOPICS[Math.floor(j / VERBS.length) % TOPICS.length]!;
    out.push(tool(`s${j % servers}`, `${verb}_${topic}_${j}`, `${verb} a ${topic} item (number ${j}) in the ${topic} service.`));
  }
  out.push(tool('weather', 'forecast', 'Get the weather forecast for a city: temperature, rain and wind.'));
  return out;
}

const spec = searchToolSpec(new Set());
const all = (): boolean => true;

describe('BM25 over names and descriptions', () => {
  it('splits names into words', () => {
    expect(terms('readTextFile get_weather-forecast Files')).toEqual(['read', 'text', 'file', 'get', 'weather', 'forecast', 'file']);
  });

  it('ranks the document whose rare terms match first; a name match beats a description match', () => {
    const idx = new Bm25Index([
      [{ text: 'list_issues', weight: 2 }, { text: 'List the issues of a repository.', weight: 1 }],
      [{ text: 'create_event', weight: 2 }, { text: 'Create a calendar event.', weight: 1 }],
      [{ text: 'calendar_list', weight: 2 }, { text: 'List calendars.', weight: 1 }],
      [{ text: 'send_mail', weight: 2 }, { text: 'Send an email, e.g. an invite to a calendar event.', weight: 1 }],
    ]);
    const hits = idx.search('calendar event', 10);
    // Both words first (the name's words count double), one word after.
    expect(hits.map((h) => h.index)).toEqual([1, 3, 2]);
    // One word: in the name beats in the description only.
    expect(idx.search('calendar', 10).map((h) => h.index)[0]).toBe(2);
    expect(idx.search('issues', 10).map((h) => h.index)).toEqual([0]);
    expect(idx.search('unrelated words', 10)).toEqual([]);
    expect(idx.search('calendar', 1)).toHaveLength(1);
  });
});

describe('ToolOffer', () => {
  it('offers every tool when all fit, and no search tool', () => {
    const tools = many(20);
    const offer = new ToolOffer(tools, { maxTools: 128, maxTokens: 1_000_000 }, 'hi', all, spec);
    expect(offer.discovery).toBe(false);
    expect(offer.activeNames()).toEqual(tools.map((t) => t.name));
  });

  it('over the cap: at most the cap, the search tool first, the tools matching the message next', () => {
    const tools = many(150);
    const offer = new ToolOffer(tools, { maxTools: 128, maxTokens: 1_000_000 }, 'what is the weather in Paris?', all, spec);
    expect(offer.discovery).toBe(true);
    const names = offer.activeNames();
    expect(names).toHaveLength(128);
    expect(names[0]).toBe('host__search_tools');
    expect(names[1]).toBe('weather__forecast');
    expect(new Set(names).size).toBe(128);
  });

  it('over the token share: the tools offered fit it, search tool included', () => {
    const tools = many(100);
    const maxTokens = 1500;
    const offer = new ToolOffer(tools, { maxTools: null, maxTokens }, 'delete a git item', all, spec);
    const names = offer.activeNames();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(offer.discovery).toBe(true);
    expect(offer.tokensOfNames(names)).toBeLessThanOrEqual(maxTokens);
    expect(offer.tokensOfNames(names)).toBe(spec.tokens + names.slice(1).reduce((n, x) => n + toolDefinitionTokens(byName.get(x)!), 0));
    expect(names[1]).toMatch(/delete_git/);
  });

  it('a search brings what it finds into the next step, newest finds first, within the cap', () => {
    const tools = many(150);
    const offer = new ToolOffer(tools, { maxTools: 20, maxTokens: 1_000_000 }, 'calendar', all, spec);
    const first = offer.activeNames();
    expect(first).not.toContain('weather__forecast');
    const r = offer.search('weather forecast', 3);
    expect(r.found.map((t) => t.name)[0]).toBe('weather__forecast');
    const next = offer.activeNames();
    expect(next).toHaveLength(20);
    expect(next.slice(0, 2)).toEqual(['host__search_tools', 'weather__forecast']);
    // Offered now: a second search for it says so instead of finding it again.
    expect(offer.search('weather forecast', 1)).toMatchObject({ found: [], already: [expect.objectContaining({ name: 'weather__forecast' })] });
    expect(offer.foundNames()[0]).toBe('weather__forecast');
  });

  it('a tool the user disabled is never found, nor offered — even when disabled after the run began', () => {
    const tools = many(150);
    let weatherOn = true;
    const enabled = (t: RegisteredTool): boolean => t.name !== 'weather__forecast' || weatherOn;
    const offer = new ToolOffer(tools, { maxTools: 20, maxTokens: 1_000_000 }, 'weather', enabled, spec);
    expect(offer.activeNames()).toContain('weather__forecast');
    weatherOn = false;
    expect(offer.activeNames()).not.toContain('weather__forecast');
    const r = offer.search('weather forecast city temperature rain wind', 10);
    expect([...r.found, ...r.already, ...r.too_large].map((t) => t.name)).not.toContain('weather__forecast');
    expect(offer.activeNames()).not.toContain('weather__forecast');
  });

  it('a tool larger than the whole tool share is reported, not brought in', () => {
    const big = tool('big', 'weather_report', `Weather report. ${'x'.repeat(8000)}`);
    const tools = [...many(60), big];
    const offer = new ToolOffer(tools, { maxTools: null, maxTokens: 1500 }, 'hello', all, spec);
    const r = offer.search('weather report', 5);
    expect(r.too_large.map((t) => t.name)).toEqual(['big__weather_report']);
    expect(offer.activeNames()).not.toContain('big__weather_report');
  });

  it('the search tool gets a free name when a server already uses it', () => {
    expect(searchToolSpec(new Set(['host__search_tools'])).name).toBe('host__search_tools_2');
  });
});
