/**
 * Which tools one run offers the model (docs/ARCHITECTURE.md "Tool discovery"). When every
 * candidate fits the provider's tool cap and the tool share of the context budget, all are
 * offered. Otherwise the run offers the candidates that fit — the ones most relevant to the
 * user's message first (BM25 over names and descriptions, ./bm25.ts) — plus the host's search
 * tool; each search brings the tools it finds into the next step (newest finds first, then the
 * first picks, all within the same limits). Tools the user disabled are never found, even when
 * they were disabled after the run began. Pure apart from the run's own state (what was found).
 */
import { toolDefinitionTokens } from '../../../preload/contract/rules/index.js';
import type { RegisteredTool } from '../../mcp/adapter.js';
import { Bm25Index, countTerms, type TermCounts } from './bm25.js';

/**
 * What the discovery needs of each tool, computed once per registered tool and kept while the
 * tool is (a tool-table rebuild makes new tool objects): its definition's estimated tokens and its
 * counted search terms. One instance per chat service, shared by its runs.
 */
export class ToolFacts {
  private readonly facts = new WeakMap<RegisteredTool, { tokens: number; terms: TermCounts }>();

  /** The facts of one tool. */
  of(t: RegisteredTool): { tokens: number; terms: TermCounts } {
    let f = this.facts.get(t);
    if (!f) {
      f = {
        tokens: toolDefinitionTokens(t),
        terms: countTerms([
          { text: `${t.server} ${t.original_name} ${t.title ?? ''}`, weight: 2 },
          { text: t.description, weight: 1 },
        ]),
      };
      this.facts.set(t, f);
    }
    return f;
  }
}

/** How many tools and how many tokens of tool definitions one request may carry. */
export interface ToolLimitsTokens {
  /** The provider's cap on tools per request; null = none documented. */
  maxTools: number | null;
  /** Most estimated tokens of tool definitions (shared rule `toolDefinitionTokens`). */
  maxTokens: number;
}

/** Most tools one search brings in; the model may ask for fewer. */
export const MAX_FOUND_PER_SEARCH = 10;
/** Tools one search brings in when the model does not say. */
export const DEFAULT_FOUND_PER_SEARCH = 5;

/** What one search found, for the model and the run's tool card. */
export interface SearchOutcome {
  /** Brought into the next step (namespaced names, best first). */
  found: RegisteredTool[];
  /** Matched but already offered in this step. */
  already: RegisteredTool[];
  /** Matched but too large to fit the tool budget even alone. */
  too_large: RegisteredTool[];
}

/** The tools of one run and, when not all fit, what the model found. */
export class ToolOffer {
  /** Whether not every candidate fits, so the run offers a subset plus the search tool. */
  readonly discovery: boolean;
  private readonly tokens: Map<string, number>;
  private readonly byName: Map<string, RegisteredTool>;
  /** The first picks, most relevant first (discovery only). */
  private readonly ranked: RegisteredTool[];
  /** Found by searches, newest first. */
  private readonly foundOrder: string[] = [];
  private index: Bm25Index | null = null;
  /** Names offered in the step being prepared (the last `activeNames()` answer). */
  private current = new Set<string>();

  /**
   * @param candidates the tools the run may use (enabled, picked servers), in the host's order
   * @param limits the provider's cap and the token share of the context budget for tools
   * @param query what the first picks are ranked against (the user's last message)
   * @param enabled asked at every search and every step: whether the user still allows the tool
   * @param searchTool the search tool's name and estimated definition tokens (counted when offered)
   * @param facts the tools' tokens and terms, kept across runs (a fresh cache when not given)
   */
  constructor(
    private readonly candidates: readonly RegisteredTool[],
    private readonly limits: ToolLimitsTokens,
    query: string,
    private readonly enabled: (t: RegisteredTool) => boolean,
    private readonly searchTool: { name: string; tokens: number },
    private readonly facts: ToolFacts = new ToolFacts(),
  ) {
    this.tokens = new Map(candidates.map((t) => [t.name, facts.of(t).tokens]));
    this.byName = new Map(candidates.map((t) => [t.name, t]));
    const total = candidates.reduce((n, t) => n + this.tokens.get(t.name)!, 0);
    this.discovery = (limits.maxTools !== null && candidates.length > limits.maxTools) || total > limits.maxTokens;
    if (!this.discovery) {
      this.ranked = [...candidates];
      return;
    }
    // The first picks: the tools most relevant to the user's message, then the rest in order.
    const hits = this.search_index().search(query, candidates.length);
    const seen = new Set(hits.map((h) => h.index));
    this.ranked = [...hits.map((h) => candidates[h.index]!), ...candidates.filter((_, i) => !seen.has(i))];
  }

  private search_index(): Bm25Index {
    this.index ??= new Bm25Index(this.candidates.map((t) => this.facts.of(t).terms));
    return this.index;
  }

  /** Estimated tokens of a candidate's definition (0 for an unknown name). */
  tokensOf(name: string): number {
    return this.tokens.get(name) ?? 0;
  }

  /** How many candidates the run has (the user's enabled tools of the picked servers). */
  get total(): number {
    return this.candidates.length;
  }

  /** The names found by searches so far, in the order they were found. */
  foundNames(): string[] {
    return [...this.foundOrder].reverse();
  }

  /**
   * The tools to offer in the next step, by namespaced name: every enabled candidate when all
   * fit; otherwise the search tool, then what searches found (newest first), then the first
   * picks, as long as they fit the count cap and the token share. Tools disabled meanwhile drop out.
   */
  activeNames(): string[] {
    const out: string[] = [];
    if (!this.discovery) {
      for (const t of this.candidates) if (this.enabled(t)) out.push(t.name);
      this.current = new Set(out);
      return out;
    }
    out.push(this.searchTool.name);
    let tokens = this.searchTool.tokens;
    const max = this.limits.maxTools ?? Number.POSITIVE_INFINITY;
    const taken = new Set<string>();
    const consider = (t: RegisteredTool | undefined): void => {
      if (!t || taken.has(t.name) || out.length >= max || !this.enabled(t)) return;
      const cost = this.tokens.get(t.name)!;
      if (tokens + cost > this.limits.maxTokens) return;
      out.push(t.name);
      taken.add(t.name);
      tokens += cost;
    };
    for (const name of this.foundOrder) consider(this.byName.get(name));
    for (const t of this.ranked) consider(t);
    this.current = new Set(out);
    return out;
  }

  /** Estimated tokens of the definitions of `names` (the search tool included when named). */
  tokensOfNames(names: readonly string[]): number {
    return names.reduce((n, name) => n + (name === this.searchTool.name ? this.searchTool.tokens : this.tokensOf(name)), 0);
  }

  /**
   * Search every enabled candidate by name and description (BM25) and bring the best `limit`
   * that are not offered yet into the next step. A tool the user disabled is never found.
   */
  search(query: string, limit = DEFAULT_FOUND_PER_SEARCH): SearchOutcome {
    const want = Math.min(MAX_FOUND_PER_SEARCH, Math.max(1, Math.floor(limit)));
    const room = this.limits.maxTokens - this.searchTool.tokens;
    const out: SearchOutcome = { found: [], already: [], too_large: [] };
    // Disabled tools are filtered here, at search time: the user may have turned one off mid-run.
    const hits = this.search_index().search(query, want * 3, (i) => this.enabled(this.candidates[i]!));
    for (const h of hits) {
      const t = this.candidates[h.index]!;
      if (out.found.length >= want) break;
      if (this.current.has(t.name)) out.already.push(t);
      else if (this.tokens.get(t.name)! > room) out.too_large.push(t);
      else out.found.push(t);
    }
    for (const t of [...out.found].reverse()) {
      const at = this.foundOrder.indexOf(t.name);
      if (at >= 0) this.foundOrder.splice(at, 1);
      this.foundOrder.unshift(t.name);
    }
    return out;
  }
}
