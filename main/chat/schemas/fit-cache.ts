/**
 * The fitted tools of a run, remembered (docs/ARCHITECTURE.md "Schemas every provider accepts",
 * "Tool discovery") — this file's one job: give `fitToolsFor`'s answer again, the very same
 * objects, for the same listed array and provider family, and fit each tool object once per
 * family even across arrays (a conversation's picked servers filter the listing into a new array
 * every run). So a run's tools are the same objects as the last run's while the host's table did
 * not change, and what is kept per tool object (the run budget's `ToolFacts`: definition tokens,
 * search terms) is found instead of computed again. Held by one object per chat service (no
 * module state); WeakMaps, so a table the host replaced is forgotten with it.
 */
import type { RegisteredTool } from '../../mcp/adapter.js';
import type { SchemaFitReason } from '../../../preload/contract/index.js';
import { fitToolSchema, type FitFamily, type FittedTool } from './index.js';

/** What `fitToolsFor` returns. */
export interface FittedTools {
  tools: FittedTool[];
  leftOut: Array<{ tool: RegisteredTool; reason: SchemaFitReason }>;
}

type OneFit = { ok: true; tool: FittedTool } | { ok: false; reason: SchemaFitReason };

/** Remembers fitted tools by listed array and by tool object, per family. */
export class ToolFitCache {
  private readonly byList = new WeakMap<readonly RegisteredTool[], Map<FitFamily, FittedTools>>();
  private readonly byTool = new WeakMap<RegisteredTool, Map<FitFamily, OneFit>>();

  /**
   * `fitToolsFor(tools, family)`, remembered: the same array and family give the same answer
   * (object identity); a tool object is fitted once per family. The listed tools must not be
   * changed in place (the host builds new ones when a listing changes).
   */
  fit(tools: readonly RegisteredTool[], family: FitFamily): FittedTools {
    let perFamily = this.byList.get(tools);
    const known = perFamily?.get(family);
    if (known) return known;
    const out: FittedTools = { tools: [], leftOut: [] };
    for (const t of tools) {
      const f = this.one(t, family);
      if (f.ok) out.tools.push(f.tool);
      else out.leftOut.push({ tool: t, reason: f.reason });
    }
    if (!perFamily) this.byList.set(tools, (perFamily = new Map()));
    perFamily.set(family, out);
    return out;
  }

  private one(t: RegisteredTool, family: FitFamily): OneFit {
    let perFamily = this.byTool.get(t);
    const known = perFamily?.get(family);
    if (known) return known;
    const f = fitToolSchema(t.input_schema, family);
    const fit: OneFit = f.ok ? { ok: true, tool: { ...t, input_schema: f.schema, strict: f.strict, nulls: f.nulls } } : { ok: false, reason: f.reason };
    if (!perFamily) this.byTool.set(t, (perFamily = new Map()));
    perFamily.set(family, fit);
    return fit;
  }
}
