/**
 * Tool discovery (docs/ARCHITECTURE.md "Tool discovery"), two figures:
 * 1. 500 tools over 20 servers (synthetic definitions, in process): per step, the time to pick
 *    the tools that fit (BM25 index over names and descriptions, ranked against the user's
 *    message, fitted to the cap and token share) and to search (one `host__search_tools` query
 *    plus the next step's active set). Goal ≤ 5 ms each. The pick is timed warm — each tool's
 *    tokens and terms already known, as for every run after the tools were listed (the chat
 *    service keeps them per tool object) — and cold (the first run after a tools change).
 * 2. A 150-tool chat (two real stdio servers) against the fake provider refusing more than 128
 *    tools: the first message is answered — search, found tool called, final answer — with the
 *    time from send to the run's end (report only; the fake model streams with 2 ms pauses).
 */
import path from 'node:path';
import { ChatService } from '../main/chat/agent.js';
import { openConversationDatabase } from '../main/chat/conversations/database.js';
import { ConversationStore } from '../main/chat/conversations/store.js';
import { searchToolSpec } from '../main/chat/discovery/search-tool.js';
import { ToolFacts, ToolOffer } from '../main/chat/discovery/tool-offer.js';
import { fitToolsFor } from '../main/chat/schemas/index.js';
import { ToolFitCache } from '../main/chat/schemas/fit-cache.js';
import { Permissions } from '../main/chat/permissions/index.js';
import { ProfileStore } from '../main/chat/profiles.js';
import { toolLimitsFor } from '../main/chat/run-budget.js';
import { SettingsStore } from '../main/chat/settings.js';
import type { RegisteredTool } from '../main/mcp/adapter.js';
import { ConfigStore } from '../main/mcp/config.js';
import { McpHost } from '../main/mcp/host.js';
import { MemorySecretStore } from '../main/secrets/store.js';
import type { ChatEvent } from '../preload/contract/index.js';
import { startFakeModel, textOf, type Turn, type WireRequest } from '../test/fixtures/fake-model.js';
import { ROOT, fmtMs, makeStateDir, median, removeDir, type Row } from './util.js';

const SERVERS = 20;
const TOOLS = 500;
const ROUNDS = 200;
/** Per-step goal (ms) of picking and of searching. */
const STEP_TARGET_MS = 5;
const VERBS = ['create', 'read', 'update', 'delete', 'list', 'find', 'export', 'import', 'archive', 'share', 'send', 'get'];
const TOPICS = ['calendar', 'email', 'file', 'database', 'git', 'issue', 'chat', 'payment', 'invoice', 'customer', 'ticket', 'document', 'spreadsheet', 'image', 'video', 'music', 'map', 'translation', 'note', 'contact', 'weather', 'flight', 'hotel', 'recipe', 'stock'];
const QUERIES = ['create a calendar event for tomorrow', 'send an email to the customer', 'read the invoice file', 'find flights to Paris', 'weather forecast', 'export the spreadsheet as csv', 'list open git issues', 'translate this note'];

/** 500 tool definitions over 20 servers, with schemas of a realistic size. */
function tools(): RegisteredTool[] {
  const out: RegisteredTool[] = [];
  for (let j = 0; j < TOOLS; j++) {
    const server = `srv${j % SERVERS}`;
    const verb = VERBS[j % VERBS.length]!;
    const topic = TOPICS[Math.floor(j / VERBS.length) % TOPICS.length]!;
    const name = `${verb}_${topic}_${j}`;
    out.push({
      name: `${server}__${name}`,
      server,
      original_name: name,
      title: null,
      annotations: {},
      description: `${verb} a ${topic} item in the ${topic} service of ${server}. Use it when the user asks to ${verb} ${topic}s; it takes the item id and optional fields.`,
      input_schema: { type: 'object', properties: { id: { type: 'string', description: 'The item id' }, text: { type: 'string', description: 'Optional text' }, limit: { type: 'integer', minimum: 1 } }, required: ['id'] },
    });
  }
  return out;
}

function timeMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/** The search-and-call script of the fake provider (the same as the e2e's). */
function discoveringScript(req: WireRequest): Turn {
  const last = req.messages[req.messages.length - 1]!;
  if (last.role === 'tool') {
    const text = textOf(last);
    if (text.includes('"found"')) {
      const doc = JSON.parse(text) as { found: Array<{ name: string }>; already_offered?: string[] };
      const target = [...doc.found.map((f) => f.name), ...(doc.already_offered ?? [])].find((n) => n.endsWith('weather_forecast'));
      if (target && req.tools?.some((t) => t.function.name === target)) return { toolCalls: [{ name: target, arguments: { city: 'Paris' } }] };
      return { text: 'nothing found' };
    }
    return { text: `Tool result: ${text}` };
  }
  if (req.tools?.some((t) => t.function.name === 'host__search_tools')) return { toolCalls: [{ name: 'host__search_tools', arguments: { query: 'weather forecast' } }] };
  return { text: 'no search tool was offered' };
}

async function chat150(): Promise<{ outcome: string; answer: string; refused: number; maxToolsSent: number; ms: number }> {
  const many = path.join(ROOT, 'test/fixtures/many-tools-stdio.mjs');
  const dir = await makeStateDir({
    alpha: { type: 'local', command: [process.execPath, many, '--tools=100'], env: {}, enabled: true, timeout_seconds: 30 },
    beta: { type: 'local', command: [process.execPath, many, '--tools=49', '--offset=7', '--weather'], env: {}, enabled: true, timeout_seconds: 30 },
  });
  const model = await startFakeModel({ maxTools: 128, script: discoveringScript, chunkDelayMs: 2 });
  const store = new ConfigStore(dir);
  await store.load();
  const host = new McpHost(store);
  try {
    host.startAll();
    await host.whenStarted();
    const profiles = new ProfileStore(dir, new MemorySecretStore());
    await new SettingsStore(profiles).set({ provider: 'openai-compatible', base_url: model.baseUrl, model: 'gpt-4o', api_key: 'sk-bench' });
    const { db } = openConversationDatabase(dir);
    const conversations = new ConversationStore(db);
    const permissions = new Permissions(dir, host);
    await permissions.setMode('never_ask');
    let end: ((e: Extract<ChatEvent, { type: 'run-end' }>) => void) | null = null;
    const ended = new Promise<Extract<ChatEvent, { type: 'run-end' }>>((r) => (end = r));
    const chat = new ChatService(host, profiles, conversations, permissions.gate, { chat: (e) => e.type === 'run-end' && end?.(e), changed: () => undefined });
    const t0 = performance.now();
    await chat.send('bench', 'How should I dress in Paris tomorrow?');
    const e = await ended;
    const ms = performance.now() - t0;
    const answer = conversations.get('bench').items.filter((i) => i.kind === 'assistant').map((i) => (i as { text: string }).text).join('');
    await chat.stopAll();
    db.close();
    return { outcome: e.outcome, answer, refused: model.refused.length, maxToolsSent: Math.max(...model.requests.map((r) => r.body.tools?.length ?? 0)), ms };
  } finally {
    await host.shutdown();
    await model.close();
    await removeDir(dir);
  }
}

/** Run both figures; rows for the table and the raw samples. */
export async function benchDiscovery(log: (m: string) => void): Promise<{ rows: Row[]; report: unknown }> {
  const all = tools();
  const limits = toolLimitsFor({ provider: 'openai-compatible', context_window: 128_000 });
  const spec = searchToolSpec(new Set(all.map((t) => t.name)));
  const pick: number[] = [];
  const cold: number[] = [];
  const search: number[] = [];
  const facts = new ToolFacts();
  const fits = new ToolFitCache();
  const runFacts = new ToolFacts();
  const runMemo: number[] = [];
  const runPlain: number[] = [];
  let offered = 0;
  log(`discovery: ${TOOLS} tools over ${SERVERS} servers, ${ROUNDS} rounds`);
  for (let i = 0; i < ROUNDS + 20; i++) {
    const q = QUERIES[i % QUERIES.length]!;
    let offer: ToolOffer | null = null;
    const c = timeMs(() => new ToolOffer(all, limits, q, () => true, spec, new ToolFacts()).activeNames());
    const p = timeMs(() => {
      offer = new ToolOffer(all, limits, q, () => true, spec, facts);
      offered = offer.activeNames().length;
    });
    const s = timeMs(() => {
      offer!.search(QUERIES[(i + 3) % QUERIES.length]!, 5);
      offer!.activeNames();
    });
    // As a run does it (agent.ts): fit the listing for the provider family, then pick — with the
    // memoised fit (same objects, so the facts are found) and with a fresh fit every run.
    const rm = timeMs(() => new ToolOffer(fits.fit(all, 'openai').tools, limits, q, () => true, spec, runFacts).activeNames());
    const rp = timeMs(() => new ToolOffer(fitToolsFor(all, 'openai').tools, limits, q, () => true, spec, runFacts).activeNames());
    if (i >= 20) {
      runMemo.push(rm);
      runPlain.push(rp);
      pick.push(p);
      cold.push(c);
      search.push(s);
    }
  }
  const mp = median(pick);
  const ms = median(search);
  const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
  log('discovery: 150-tool chat against a provider capped at 128');
  const c = await chat150();
  const answered = c.outcome === 'done' && c.answer.startsWith('Tool result: weather_forecast') && c.refused === 0;
  const rows: Row[] = [
    { bench: `Tool discovery: pick per step, ${TOOLS} tools / ${SERVERS} servers (index + rank + fit; ${offered} offered)`, measurement: `${fmtMs(mp)} (p95 ${fmtMs(p95(pick))}) = ${(mp / STEP_TARGET_MS).toFixed(3)}× target`, target: `≤ ${STEP_TARGET_MS} ms`, mark: mp <= STEP_TARGET_MS ? 'OK' : 'OVER' },
    { bench: `Tool discovery: fit + pick per run as the agent does (memoised fitToolsFor, ${TOOLS} tools)`, measurement: `${fmtMs(median(runMemo))} (p95 ${fmtMs(p95(runMemo))})`, target: `≤ ${STEP_TARGET_MS} ms`, mark: median(runMemo) <= STEP_TARGET_MS ? 'OK' : 'OVER' },
    { bench: '  same with a fresh fit every run (before the memo)', measurement: `${fmtMs(median(runPlain))} (p95 ${fmtMs(p95(runPlain))})`, target: '', mark: '' },
    { bench: '  cold pick: first run after the tools changed (tokens and terms computed)', measurement: `${fmtMs(median(cold))} (p95 ${fmtMs(p95(cold))})`, target: '', mark: '' },
    { bench: '  search per step (query + next step’s tools)', measurement: `${fmtMs(ms)} (p95 ${fmtMs(p95(search))}) = ${(ms / STEP_TARGET_MS).toFixed(3)}× target`, target: `≤ ${STEP_TARGET_MS} ms`, mark: ms <= STEP_TARGET_MS ? 'OK' : 'OVER' },
    { bench: '150-tool chat vs a provider capped at 128: first message answered', measurement: `${answered ? 'yes' : 'NO'} (${c.outcome}; ${c.refused} refused; at most ${c.maxToolsSent} tools sent; ${fmtMs(c.ms)} send → end)`, target: 'answered, none refused', mark: answered ? 'OK' : 'OVER' },
  ];
  return { rows, report: { pickMs: pick, coldPickMs: cold, searchMs: search, offered, chat: c, targetMs: STEP_TARGET_MS } };
}
