/**
 * A small BM25 ranking over short documents (tool names and descriptions), in memory, with no
 * network and no embeddings (docs/ARCHITECTURE.md "Tool discovery"). Okapi BM25 with the usual
 * k1 = 1.2, b = 0.75; a document is a few weighted fields whose term counts are added with their
 * weight (a tool's name counts more than its description). Pure apart from the index it holds.
 */

/** Term-frequency saturation. */
const K1 = 1.2;
/** Length normalisation. */
const B = 0.75;

/** One field of a document and how much its terms count (1 = plain text). */
export interface Field {
  text: string;
  weight: number;
}

/** A ranked hit: the document's position in the indexed list and its score (higher is better). */
export interface Hit {
  index: number;
  score: number;
}

/** English words too common in tool descriptions to tell tools apart. */
const STOP_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'for', 'in', 'on', 'to', 'by', 'with', 'from', 'is', 'are', 'it', 'its', 'this', 'that', 'be', 'as', 'at', 'me', 'my', 'i']);

/**
 * Split text into lower-case search terms: letters and digits of any script, with camelCase and
 * snake_case names split into their words, a plural `s` dropped (`files` → `file`), and common
 * English words (`a`, `the`, `for` …) left out.
 */
export function terms(text: string): string[] {
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  for (const m of spaced.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    let w = m[0];
    if (STOP_WORDS.has(w)) continue;
    if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
    out.push(w);
  }
  return out;
}

/** One document's weighted term counts and weighted length (see {@link countTerms}). */
export interface TermCounts {
  counts: Map<string, number>;
  length: number;
}

/** Count a document's terms, each field's with its weight (reusable: see `ToolFacts`). */
export function countTerms(fields: readonly Field[]): TermCounts {
  const counts = new Map<string, number>();
  let length = 0;
  for (const f of fields)
    for (const t of terms(f.text)) {
      counts.set(t, (counts.get(t) ?? 0) + f.weight);
      length += f.weight;
    }
  return { counts, length };
}

/** An immutable BM25 index over a list of documents. */
export class Bm25Index {
  /** Per document: weighted term counts. */
  private readonly tf: Array<Map<string, number>>;
  /** Per document: weighted length. */
  private readonly len: number[];
  /** Documents containing each term. */
  private readonly df = new Map<string, number>();
  /** Term → documents that contain it (postings, for scoring only the matching ones). */
  private readonly postings = new Map<string, number[]>();
  private readonly avgLen: number;

  /**
   * @param docs each document's fields, or its counted terms (shared, not copied); a hit's `index`
   *   is the position in this list
   */
  constructor(docs: ReadonlyArray<readonly Field[] | TermCounts>) {
    this.tf = [];
    this.len = [];
    let total = 0;
    docs.forEach((doc, i) => {
      const { counts, length: n } = Array.isArray(doc) ? countTerms(doc) : (doc as TermCounts);
      this.tf.push(counts);
      this.len.push(n);
      total += n;
      for (const t of counts.keys()) {
        this.df.set(t, (this.df.get(t) ?? 0) + 1);
        const p = this.postings.get(t);
        if (p) p.push(i);
        else this.postings.set(t, [i]);
      }
    });
    this.avgLen = docs.length ? total / docs.length : 0;
  }

  /** How many documents are indexed. */
  get size(): number {
    return this.tf.length;
  }

  /**
   * The documents matching `query`, best first (ties: earlier document first), at most `limit`,
   * only those `accept` lets through. A query with no known term matches nothing.
   */
  search(query: string, limit: number, accept: (index: number) => boolean = () => true): Hit[] {
    const n = this.tf.length;
    const scores = new Map<number, number>();
    for (const q of new Set(terms(query))) {
      const docs = this.postings.get(q);
      if (!docs) continue;
      const df = this.df.get(q)!;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const d of docs) {
        const f = this.tf[d]!.get(q)!;
        const s = (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.len[d]!) / (this.avgLen || 1)));
        scores.set(d, (scores.get(d) ?? 0) + s);
      }
    }
    const hits: Hit[] = [];
    for (const [index, score] of scores) if (accept(index)) hits.push({ index, score });
    hits.sort((a, b) => b.score - a.score || a.index - b.index);
    return hits.slice(0, Math.max(0, limit));
  }
}
