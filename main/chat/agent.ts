/**
 * The agent loop: the model ↔ MCP tools until the model answers (bounded steps), one run at a time
 * per conversation (several conversations may run at once). The model's context is built from the
 * saved transcript; everything a run does is recorded as it happens (RunRecorder). Uses the AI
 * SDK's `streamText` for model calls and tool-call plumbing; tool execution goes through the host
 * (namespaced name → server + real name). See docs/ARCHITECTURE.md "The path of a tool call".
 */
import { randomUUID } from 'node:crypto';
import { stepCountIs, streamText, type LanguageModel, type ModelMessage } from 'ai';
import type { ChatEvent, ContextEntry, ContextOverflowNote, ConversationSummary, ModelErrorCode, ModelErrorDetail, RunToolsNote, TranscriptItem } from '../../preload/contract/index.js';
import type { RegisteredTool } from '../mcp/adapter.js';
import { toolUiResourceUri } from '../mcp/apps/tool-ui.js';
import type { McpHost } from '../mcp/host.js';
import { transcriptToMessages } from './conversations/history.js';
import { newItemId, type ConversationStore } from './conversations/store.js';
import { describeModelError } from './model-errors.js';
import { buildSearchTool } from './discovery/search-tool.js';
import { ToolFacts } from './discovery/tool-offer.js';
import { contextFitNote, type ImagePolicy, type ModelImage } from './model-context.js';
import type { PermissionGate } from './permissions/gate.js';
import { ProfileNotFoundError, type ModelProfile, type ProfileStore } from './profiles.js';
import { createModel } from './providers.js';
import { RunRecorder } from './run-recorder.js';
import { ContextOverflowError, RunBudget } from './run-budget.js';
import { previousOffer, runToolsText, sameOffer } from './run-notes.js';
import { buildRunTools } from './run-tools.js';
import type { TaskService } from '../mcp/tasks/service.js';
import { fitFamilyOf } from './schemas/index.js';
import { ToolFitCache } from './schemas/fit-cache.js';
import { ToolInputStream, type ViewToolRef } from './tool-input-stream.js';
import { AppInterruption, interruptedByApp } from './interruption.js';

export { MODEL_RESULT_LIMIT, UI_RESULT_LIMIT, truncateText } from './limits.js';

export { ANSWER_RESERVE_TOKENS, answerReserveTokens } from './run-budget.js';

/** Most model steps (model turns) in one run. */
export const MAX_STEPS = 12;

/** Thrown when chat is used before a model is configured. */
export class NotConfiguredError extends Error {
  override name = 'NotConfiguredError';
}

/** Thrown when a conversation already has a run (one turn at a time per conversation). */
export class ConversationBusyError extends Error {
  override name = 'ConversationBusyError';
  constructor() {
    super('This conversation is still answering. Wait for it to finish or press Stop, then send again.');
  }
}

/** Thrown when an edit names a message that is not the conversation's last user message. */
export class NotEditableError extends Error {
  override name = 'NotEditableError';
  constructor() {
    super('Only the last message you sent can be edited.');
  }
}

/** Where the chat announces what happens. */
export interface ChatEvents {
  /** Transcript entries and run ends (`chat.event`). */
  chat(e: ChatEvent): void;
  /** A conversation's summary changed (`conversations.changed`). */
  changed(summary: ConversationSummary): void;
}

interface ActiveRun {
  runId: string;
  ctrl: AbortController;
  /** Running tool calls by call id, for cancelling one call alone. */
  calls: Map<string, AbortController>;
  /** Calls whose input the model is writing or wrote (announced `tool-input`), by call id: their server and tool. */
  preparing: Map<string, { server: string; tool: string }>;
  done: Promise<void>;
}

/** Runs of every conversation. One instance per app core. */
export class ChatService {
  /** The active run of each conversation, by conversation id. */
  private readonly runs = new Map<string, ActiveRun>();
  /** Each tool's definition tokens and search terms, shared by the runs (./discovery/tool-offer.ts). */
  private readonly toolFacts = new ToolFacts();

  /**
   * @param profiles the model profiles (a conversation uses its own, else the default)
   * @param gate the permission gate every tool call passes at execution time
   * @param extraSystem extra system text for a conversation's runs (MCP Apps: what its views put
   *   in the model's context, main/mcp/apps/service.ts `modelContext`); null = none
   * @param fits the fitted tools remembered by listing and provider family (./schemas/fit-cache.ts),
   *   so the runs' tools stay the same objects and `toolFacts` finds them
   */
  constructor(
    private readonly host: McpHost,
    private readonly profiles: ProfileStore,
    private readonly store: ConversationStore,
    private readonly gate: PermissionGate,
    private readonly events: ChatEvents,
    private readonly extraSystem: (conversationId: string) => string | null = () => null,
    private readonly fits: ToolFitCache = new ToolFitCache(),
    /** Follows the runs' task-backed calls (main/mcp/tasks/service.ts); null = not followed. */
    private readonly tasks: TaskService | null = null,
  ) {}

  /**
   * Whether run `runId` of a conversation, still active, announced a call `callId` of `tool` (its
   * real name) on `server` while the model wrote its input — an MCP App view may start then, before
   * the call's entry exists.
   */
  isPreparing(conversationId: string, runId: string, callId: string, server: string, tool: string): boolean {
    const run = this.runs.get(conversationId);
    const p = run?.runId === runId ? run.preparing.get(callId) : undefined;
    return !!p && p.server === server && p.tool === tool;
  }

  /** Whether a conversation has a run now. */
  isRunning(conversationId: string): boolean {
    return this.runs.has(conversationId);
  }

  /** A conversation's summary with its running flag, or null when it does not exist. */
  summary(conversationId: string): ConversationSummary | null {
    const s = this.store.summary(conversationId);
    return s ? { ...s, running: this.isRunning(conversationId) } : null;
  }

  private announceSummary(conversationId: string): void {
    const s = this.summary(conversationId);
    if (s) this.events.changed(s);
  }

  /**
   * The model of a conversation: its own profile, else the default profile (each with its own key).
   * @throws NotConfiguredError when there is no usable profile.
   */
  private async model(conversationId: string, profileId?: string): Promise<{ model: LanguageModel; profile: ModelProfile }> {
    const wanted = profileId ?? this.store.summary(conversationId)?.profile_id ?? null;
    const p = (wanted ? await this.profiles.get(wanted) : null) ?? (await this.profiles.getDefault());
    if (!p || !p.profile.base_url || !p.profile.model) throw new NotConfiguredError('Configure a model in Settings → Model first.');
    return { model: createModel(p.profile, p.apiKey), profile: p.profile };
  }

  private refuseIfBusy(conversationId: string): void {
    if (this.runs.has(conversationId)) throw new ConversationBusyError();
  }

  /**
   * Send a user message: the conversation is created if new (titled after this message, with the
   * given profile and tool servers), the message is saved — with the prompts and resources
   * attached to it (`context`, resolved by main/chat/context/service.ts) — and a run starts.
   * @throws NotConfiguredError when no model is configured; ConversationBusyError while it runs.
   */
  async send(conversationId: string, text: string, profileId?: string, toolServers?: string[], context?: ContextEntry[]): Promise<{ run_id: string }> {
    this.refuseIfBusy(conversationId);
    if (profileId && !(await this.profiles.get(profileId))) throw new ProfileNotFoundError(profileId);
    const model = await this.model(conversationId, profileId);
    this.refuseIfBusy(conversationId);
    // A message that is only a prompt or an attachment is titled after it.
    this.store.ensure(conversationId, text.trim() || context?.[0]?.title || 'Attachment');
    if (profileId) this.store.setProfile(conversationId, profileId);
    if (toolServers) this.store.setToolServers(conversationId, toolServers);
    const item: TranscriptItem = { kind: 'user', id: newItemId(), ts: Date.now(), text, ...(context?.length ? { context } : {}) };
    this.store.append(conversationId, item);
    return this.begin(conversationId, model, (runId) => this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'item', item }));
  }

  /**
   * Replace the text of the last user message, drop everything after it, and run again.
   * @throws NotEditableError when `itemId` is not the last user message; ConversationBusyError;
   *   NotConfiguredError; ConversationNotFoundError.
   */
  async editResend(conversationId: string, itemId: string, text: string): Promise<{ run_id: string }> {
    this.refuseIfBusy(conversationId);
    const model = await this.model(conversationId);
    const { items } = this.store.get(conversationId);
    const at = lastUserIndex(items);
    const last = items[at];
    if (!last || last.id !== itemId || last.kind !== 'user') throw new NotEditableError();
    this.refuseIfBusy(conversationId);
    const dropped = items.slice(at + 1).map((i) => i.id);
    const edited: TranscriptItem = { ...last, text, ts: Date.now() };
    this.store.removeItems(conversationId, dropped);
    this.store.update(conversationId, edited);
    return this.begin(conversationId, model, (runId) => {
      if (dropped.length) this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'items-removed', item_ids: dropped });
      this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'item', item: edited });
    });
  }

  /**
   * Drop the last answer (everything after the last user message) and run again.
   * @throws NotEditableError when there is no user message; ConversationBusyError;
   *   NotConfiguredError; ConversationNotFoundError.
   */
  async regenerate(conversationId: string): Promise<{ run_id: string }> {
    this.refuseIfBusy(conversationId);
    const model = await this.model(conversationId);
    const { items } = this.store.get(conversationId);
    const at = lastUserIndex(items);
    if (at < 0) throw new NotEditableError();
    this.refuseIfBusy(conversationId);
    const dropped = items.slice(at + 1).map((i) => i.id);
    this.store.removeItems(conversationId, dropped);
    return this.begin(conversationId, model, (runId) => {
      if (dropped.length) this.events.chat({ conversation_id: conversationId, run_id: runId, type: 'items-removed', item_ids: dropped });
    });
  }

  /** Start a run on the saved transcript; `announce` runs first with the new run id. */
  private begin(conversationId: string, model: { model: LanguageModel; profile: ModelProfile }, announce: (runId: string) => void): { run_id: string } {
    const runId = randomUUID();
    const { items } = this.store.get(conversationId);
    const history = transcriptToMessages(items, imagePolicy(model.profile));
    // What the conversation's last run note says was offered: a run that offers the same gets no note.
    const before = previousOffer(items);
    // The conversation the user works in is the one to reopen at the next start.
    this.store.setLastOpened(conversationId);
    const run: ActiveRun = { runId, ctrl: new AbortController(), calls: new Map(), preparing: new Map(), done: Promise.resolve() };
    this.runs.set(conversationId, run);
    announce(runId);
    this.announceSummary(conversationId);
    const recorder = new RunRecorder(this.store, conversationId, runId, (e) => this.events.chat(e));
    run.done = this.run(run, recorder, model, history, before).finally(() => {
      this.runs.delete(conversationId);
      this.announceSummary(conversationId);
    });
    return { run_id: runId };
  }

  /** Stop a conversation's run: cancels generation and any running tool call. */
  stop(conversationId: string): { stopped: boolean } {
    const run = this.runs.get(conversationId);
    if (!run) return { stopped: false };
    run.ctrl.abort();
    return { stopped: true };
  }

  /**
   * Cancel one running tool call: the server gets `notifications/cancelled`, the call ends as a
   * tool error ("Cancelled by the user.") and the model continues with that result.
   */
  cancelTool(conversationId: string, callId: string): { cancelled: boolean } {
    const c = this.runs.get(conversationId)?.calls.get(callId);
    if (!c) return { cancelled: false };
    c.abort();
    return { cancelled: true };
  }

  /** Stop a conversation's run and wait until it has ended (its last entries saved). */
  async stopAndWait(conversationId: string): Promise<void> {
    const run = this.runs.get(conversationId);
    if (!run) return;
    run.ctrl.abort();
    await run.done;
  }

  /**
   * End every run as interrupted by the app (shutdown, restart: not the user's Stop) and wait until
   * each has recorded its end. Calls waiting for approval end `approval_interrupted`, running ones
   * `interrupted` (./interruption.ts).
   */
  async stopAll(): Promise<void> {
    const runs = [...this.runs.values()];
    // Their tasks (MCP Tasks) are left running on the servers, to be picked up at the next start.
    for (const r of runs) r.ctrl.abort(new AppInterruption());
    await Promise.all(runs.map((r) => r.done));
  }

  private async run(run: ActiveRun, rec: RunRecorder, chosen: { model: LanguageModel; profile: ModelProfile }, history: ModelMessage[], before: RunToolsNote | null): Promise<void> {
    const { ctrl } = run;
    const { profile } = chosen;
    let outcome: 'done' | 'stopped' | 'failed' | 'interrupted' = 'done';
    let failure: ReturnType<typeof failureOf> | null = null;
    let budget: RunBudget | null = null;
    try {
      // The tools the model gets: those the host offers, narrowed to the servers picked for this conversation.
      const picked = this.store.summary(rec.conversationId)?.tool_servers ?? null;
      const listed = picked === null ? this.host.tools() : this.host.tools().filter((t) => picked.includes(t.server));
      // Each schema fitted to what this provider accepts; a tool it cannot take is left out (its
      // server's card says so), never the whole request (docs/ARCHITECTURE.md "Schemas every provider accepts").
      const offered = this.fits.fit(listed, fitFamilyOf(profile)).tools;
      const system = [profile.system_prompt, this.extraSystem(rec.conversationId)].filter((s): s is string => !!s).join('\n\n') || undefined;
      // The context budget (./run-budget.ts): room for the answer, the step's tools and the system
      // prompt first; more tools than fit → a subset plus the search tool; too big → not sent.
      budget = new RunBudget(profile, offered, system, history, (t) => this.host.toolSetting(t.server, t.original_name)?.enabled !== false, this.toolFacts);
      const fitted = budget.step(history);
      const offeredNote = budget.offeredNote(fitted.activeTools);
      if (offeredNote && !sameOffer(offeredNote, before)) rec.notice('info', runToolsText(offeredNote), { run_tools: offeredNote });
      if (fitted.notice) rec.notice('info', fitted.notice.message, { context_fit: contextFitNote(fitted.notice) });
      let lastFitNotice = fitted.notice?.message ?? null;
      const stepBudget = budget;
      const followUpImages: ModelImage[] = [];
      const result = streamText({
        model: chosen.model,
        system,
        messages: fitted.messages,
        tools: {
          ...buildRunTools(this.host, this.gate, offered, {
            conversationId: rec.conversationId,
            runId: run.runId,
            signal: ctrl.signal,
            calls: run.calls,
            recorder: rec,
            images: imagePolicy(profile),
            followUpImages,
            tasks: this.tasks,
          }),
          ...(budget.search ? { [budget.search.name]: buildSearchTool(budget.offer, budget.search.name, rec) } : {}),
        },
        activeTools: fitted.activeTools,
        stopWhen: stepCountIs(MAX_STEPS),
        abortSignal: ctrl.signal,
        maxRetries: 1,
        // Errors arrive as `error` parts below and end the run with a notice; the SDK must not
        // print them itself.
        onError: () => undefined,
        // Images a provider cannot take inside a tool result go with the next step as a user
        // message; and every step is fitted to the context window again, since the tool results
        // of this run count too (a notice when fitting newly left something out).
        prepareStep: ({ messages }) => {
          const images = followUpImages.splice(0);
          const withImages: ModelMessage[] = images.length
            ? [
                ...messages,
                { role: 'user', content: [{ type: 'text', text: 'The images returned by the tool calls above:' }, ...images.map((i) => ({ type: 'image' as const, image: i.data, mediaType: i.mediaType }))] },
              ]
            : messages;
          // What the model's searches found joins the step's tools (./discovery/tool-offer.ts).
          const step = stepBudget.step(withImages);
          if (step.notice && step.notice.message !== lastFitNotice) {
            lastFitNotice = step.notice.message;
            rec.notice('info', step.notice.message, { context_fit: contextFitNote(step.notice) });
          }
          return { messages: step.messages, activeTools: step.activeTools };
        },
      });
      // The input of calls to tools with an MCP App view, while the model writes it.
      const inputs = new ToolInputStream({
        conversationId: rec.conversationId,
        runId: run.runId,
        viewTool: viewToolLookup(this.host, offered),
        started: (callId) => rec.hasTool(callId),
        emit: (e) => {
          if (e.type === 'tool-input') run.preparing.set(e.call_id, { server: e.server, tool: e.original_name });
          this.events.chat(e);
        },
      });
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') rec.text(part.text);
        else if (part.type === 'tool-input-start') inputs.start(part.id, part.toolName);
        else if (part.type === 'tool-input-delta') await inputs.delta(part.id, part.delta);
        else if (part.type === 'tool-input-end') await inputs.end(part.id);
        else if (part.type === 'start-step') rec.endAnswer();
        else if (part.type === 'error') failure = failureOf(part.error);
        else if (part.type === 'abort') break;
      }
      if (ctrl.signal.aborted) outcome = stoppedBy(ctrl.signal);
      else if (failure) outcome = 'failed';
    } catch (err) {
      if (ctrl.signal.aborted) outcome = stoppedBy(ctrl.signal);
      else {
        outcome = 'failed';
        failure = failureOf(err);
      }
    }
    try {
      rec.finish(outcome, { keepTasks: interruptedByApp(ctrl.signal) });
      const foundNote = budget?.foundNote();
      if (foundNote) rec.notice('info', runToolsText(foundNote), { run_tools: foundNote });
      if (outcome === 'stopped') rec.notice('info', 'Stopped.', { run_end: 'stopped' });
      if (outcome === 'failed') rec.notice('error', failure?.text ?? 'The model request failed.', failure?.note ?? {});
    } catch (err) {
      // The database failed (disk full, file removed): the window still learns how the run ended.
      const said = errorMessage(err);
      this.events.chat({ conversation_id: rec.conversationId, run_id: run.runId, type: 'item', item: { kind: 'notice', id: newItemId(), ts: Date.now(), run_id: run.runId, tone: 'error', text: `Could not save this conversation: ${said}`, save_failed: { said } } });
    }
    this.events.chat({ conversation_id: rec.conversationId, run_id: run.runId, type: 'run-end', outcome });
  }
}

/** How an aborted run ended: `interrupted` when the app ended it (shutdown), else `stopped` (the user's Stop). */
function stoppedBy(signal: AbortSignal): 'stopped' | 'interrupted' {
  return interruptedByApp(signal) ? 'interrupted' : 'stopped';
}

/**
 * A failed run's notice: its English text, and the facts the window words — the numbers when the
 * request did not fit the context window (not sent), else the model error's code and detail.
 */
function failureOf(err: unknown): { text: string; note: { context_overflow: ContextOverflowNote } | { model_error: { code: ModelErrorCode; detail: ModelErrorDetail } } } {
  if (err instanceof ContextOverflowError) return { text: err.message, note: { context_overflow: err.note } };
  const d = describeModelError(err);
  return { text: d.message, note: { model_error: { code: d.code, detail: d.detail } } };
}

/**
 * Which offered tools have an MCP App view (`_meta.ui.resourceUri` on the tool its server lists),
 * by namespaced name; looked up when a call's input begins.
 */
function viewToolLookup(host: McpHost, offered: readonly RegisteredTool[]): (name: string) => ViewToolRef | null {
  const byName = new Map(offered.map((t) => [t.name, t]));
  return (name) => {
    const t = byName.get(name);
    const listed = t && host.ready(t.server)?.tools.find((x) => x.name === t.original_name);
    return t && listed && toolUiResourceUri(listed) ? { server: t.server, original_name: t.original_name } : null;
  };
}

/** How a profile's model takes tool images (Anthropic: inside tool results; others: a follow-up message). */
function imagePolicy(profile: ModelProfile): ImagePolicy {
  return { acceptsImages: profile.accepts_images, imagesInToolResults: profile.provider === 'anthropic' };
}

/** Index of the last user message, or -1. */
function lastUserIndex(items: readonly TranscriptItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.kind === 'user') return i;
  return -1;
}

/** A short, secret-free message for a model error. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const e = err as Error & { statusCode?: number; url?: string };
    const status = e.statusCode ? ` (HTTP ${e.statusCode})` : '';
    return `${e.message.slice(0, 500)}${status}`;
  }
  return String(err).slice(0, 500);
}
