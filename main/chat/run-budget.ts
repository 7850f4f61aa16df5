/**
 * The budget of one run (docs/ARCHITECTURE.md "Context budget"), step by step: what the model
 * gets must fit the profile's context window. Room is reserved first for the answer, then for
 * the tool definitions of the step (./discovery/tool-offer.ts decides which tools; all of them
 * when they fit the provider's cap and the tool share) and the system prompt; the conversation is
 * fitted into what is left (./model-context.ts `fitToContextWindow`: the newest tool result kept
 * whole longest). A request that still does not fit is not sent: `ContextOverflowError` carries
 * the numbers for the notice. Token counts are estimates (~4 characters per token; no tokenizer
 * library is installed).
 */
import type { ModelMessage } from 'ai';
import type { ContextOverflowNote, RunToolsNote } from '../../preload/contract/index.js';
import type { RegisteredTool } from '../mcp/adapter.js';
import { ANSWER_RESERVE_TOKENS, answerReserveTokens } from '../../preload/contract/rules/index.js';
import { META_SERVER } from '../mcp/protocol/meta-tools.js';
import { searchToolSpec } from './discovery/search-tool.js';
import { ToolFacts, ToolOffer, type ToolLimitsTokens } from './discovery/tool-offer.js';
import { estimateTextTokens, fitToContextWindow, type ContextNotice } from './model-context.js';
import type { ModelProfile } from './profiles.js';
import { DEFAULT_SCHEMA_BYTES, limitsFor } from './tool-budget.js';

/** The answer's reserve (a shared rule: the window counts with it too). */
export { ANSWER_RESERVE_TOKENS, answerReserveTokens };

/**
 * Share of the context window (after the answer's reserve) that tool definitions may take; the
 * rest is the conversation's. Above it, or above the provider's tool cap, the run offers a subset
 * and the search tool.
 */
export const TOOL_SHARE = 0.5;

/**
 * How many tools and tokens of definitions one request of a profile may carry: the provider's cap
 * (128 for OpenAI-compatible endpoints), and the smaller of `DEFAULT_SCHEMA_BYTES` (as tokens) and
 * `TOOL_SHARE` of the window after the answer's reserve.
 */
export function toolLimitsFor(profile: Pick<ModelProfile, 'provider' | 'context_window'>): ToolLimitsTokens {
  const room = profile.context_window - answerReserveTokens(profile.context_window);
  return { maxTools: limitsFor(profile.provider).maxTools, maxTokens: Math.max(0, Math.min(Math.floor(DEFAULT_SCHEMA_BYTES / 4), Math.floor(room * TOOL_SHARE))) };
}

/** The request would not fit the context window: it is not sent. */
export class ContextOverflowError extends Error {
  override name = 'ContextOverflowError';
  constructor(readonly note: ContextOverflowNote) {
    super(
      `Not sent: this request needs about ${note.needed} tokens, more than the model's context window of ${note.context_window} — ` +
        `${note.tool_tokens} for the definitions of ${note.tool_count} tools, ${note.system_tokens} for the system prompt, ` +
        `${note.conversation_tokens} for the conversation even after leaving out all it could, and ${note.answer_reserve} kept for the answer. ` +
        'Use fewer tools (Tools next to the message box), or set a larger context window for this model (Settings → Model).',
    );
  }
}

/** One step's request: its fitted messages, the tools to offer, and what fitting left out. */
export interface StepRequest {
  messages: ModelMessage[];
  activeTools: string[];
  notice: ContextNotice | null;
}

/** The text of the last user message (what the first tool picks are ranked against). */
function lastUserText(messages: readonly ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    return m.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ');
  }
  return '';
}

/** The budget of one run. */
export class RunBudget {
  readonly offer: ToolOffer;
  /** The search tool's name and tokens, when the run offers it (not every tool fits). */
  readonly search: { name: string; tokens: number } | null;
  private readonly limits: ToolLimitsTokens;
  private readonly systemTokens: number;
  private readonly reserve: number;
  /** The names of the app's own tools among the candidates (`host__…`), counted apart in the notes. */
  private readonly hostTools: ReadonlySet<string>;

  /**
   * @param candidates the conversation's enabled tools (the host's offered tools, picked servers)
   * @param history the run's messages at its start (the user's last message ranks the first picks)
   * @param enabled whether the user still allows a tool (asked at every search and step)
   * @param facts the tools' tokens and search terms, kept across runs by the chat service
   */
  constructor(
    private readonly profile: Pick<ModelProfile, 'provider' | 'context_window'>,
    candidates: readonly RegisteredTool[],
    system: string | undefined,
    history: readonly ModelMessage[],
    enabled: (t: RegisteredTool) => boolean,
    facts: ToolFacts = new ToolFacts(),
  ) {
    this.limits = toolLimitsFor(profile);
    this.systemTokens = system ? estimateTextTokens(system) : 0;
    this.reserve = answerReserveTokens(profile.context_window);
    this.hostTools = new Set(candidates.filter((t) => t.server === META_SERVER).map((t) => t.name));
    const spec = searchToolSpec(new Set(candidates.map((t) => t.name)));
    this.offer = new ToolOffer(candidates, this.limits, lastUserText(history), enabled, spec, facts);
    this.search = this.offer.discovery ? spec : null;
  }

  /**
   * The request of the next step: the tools to offer (what searches found included), and the
   * messages fitted into what the window leaves after the answer, those tools and the system prompt.
   * @throws ContextOverflowError when it cannot be made to fit (it must not be sent)
   */
  step(messages: ModelMessage[]): StepRequest {
    const activeTools = this.offer.activeNames();
    const toolTokens = this.offer.tokensOfNames(activeTools);
    const budget = this.profile.context_window - this.reserve - toolTokens - this.systemTokens;
    const fitted = fitToContextWindow(messages, Math.max(0, budget));
    if (budget <= 0 || fitted.notice?.stillTooLong) {
      const conversation = fitted.notice?.estimatedTokens ?? 0;
      throw new ContextOverflowError({
        context_window: this.profile.context_window,
        answer_reserve: this.reserve,
        tool_tokens: toolTokens,
        tool_count: activeTools.length,
        system_tokens: this.systemTokens,
        conversation_tokens: conversation,
        needed: this.reserve + toolTokens + this.systemTokens + conversation,
      });
    }
    return { messages: fitted.messages, activeTools, notice: fitted.notice };
  }

  /**
   * The run note of a run that offers a subset (at its start), or null when every tool fits. The
   * servers' tools are counted as the chat counts them; the app's own tools apart (`host_offered`).
   */
  offeredNote(first: readonly string[]): RunToolsNote | null {
    if (!this.search) return null;
    const sent = first.filter((n) => n !== this.search!.name);
    return {
      stage: 'offered',
      total: this.offer.total - this.hostTools.size,
      offered: sent.filter((n) => !this.hostTools.has(n)),
      found: [],
      host_total: this.hostTools.size,
      host_offered: sent.filter((n) => this.hostTools.has(n)),
      ...this.reason(),
    };
  }

  /** The run note of what the model's searches brought in (at the end), or null when nothing was. */
  foundNote(): RunToolsNote | null {
    const found = this.offer.foundNames();
    if (!this.search || !found.length) return null;
    return { stage: 'found', total: this.offer.total, offered: [], found, ...this.reason() };
  }

  private reason(): Pick<RunToolsNote, 'reason' | 'max_tools' | 'max_tokens'> {
    const over = this.limits.maxTools !== null && this.offer.total > this.limits.maxTools;
    return { reason: over ? 'count' : 'tokens', max_tools: this.limits.maxTools, max_tokens: this.limits.maxTokens };
  }
}
