/**
 * The run notes of tool discovery (docs/ARCHITECTURE.md "Tool discovery"): their English text
 * (the window words them itself from the fields), and whether a run's offer is news — a run that
 * offers what the conversation's last note says gets no note, so the same sentence does not stand
 * above every answer. Pure.
 */
import type { RunToolsNote, TranscriptItem } from '../../preload/contract/index.js';

/** The English text of a run note. */
export function runToolsText(note: RunToolsNote): string {
  if (note.stage === 'found') return `Tools the model found and was given in this run: ${note.found.join(', ')}.`;
  const why = note.reason === 'count' ? `the provider accepts at most ${note.max_tools} tools` : `tool definitions may take about ${note.max_tokens} tokens of the context window`;
  const host = note.host_total ? ` The app's own ${note.host_total} tools for the servers' resources and prompts (host__…) are counted apart: ${note.host_offered?.length ?? 0} of them were offered at first.` : '';
  return `${note.offered.length} of ${note.total} tools were offered at first (${why}); the model can search the others by name and description.${host}`;
}

/**
 * The last `offered` note the conversation shows before its last user message (the run now
 * starting answers that message), or null when there is none. A run whose offer is that one's says
 * nothing new; runs that offered every tool have no note and do not count.
 */
export function previousOffer(items: readonly TranscriptItem[]): RunToolsNote | null {
  let i = items.length - 1;
  while (i >= 0 && items[i]!.kind !== 'user') i--;
  for (i--; i >= 0; i--) {
    const it = items[i]!;
    if (it.kind === 'notice' && it.run_tools?.stage === 'offered') return it.run_tools;
  }
  return null;
}

/** Whether two `offered` notes say the same: the same tools of the same total, under the same limit. */
export function sameOffer(a: RunToolsNote, b: RunToolsNote | null): boolean {
  if (!b) return false;
  const same = (x: readonly string[] = [], y: readonly string[] = []): boolean => x.length === y.length && [...x].sort().join('\n') === [...y].sort().join('\n');
  return a.total === b.total && (a.host_total ?? 0) === (b.host_total ?? 0) && a.reason === b.reason && a.max_tools === b.max_tools && a.max_tokens === b.max_tokens && same(a.offered, b.offered) && same(a.host_offered, b.host_offered);
}
