/**
 * A message's text, folded when it is long (docs/ARCHITECTURE.md "Conversations", long messages):
 * the first part is shown and the rest on request — "Show more" adds one piece, "Show the rest"
 * adds every piece, one per step (a transition, so the window stays responsive), until all is
 * shown; "Fold again" goes back to the first part. Markdown past the markdown renderer's limits
 * (size, nesting: ../markdown-limits.ts) shows as plain text, as it always did (rendering megabytes
 * of markdown would take a minute). Pieces after the first skip layout while they
 * are off screen (`content-visibility: auto`). Where pieces are cut: ../fold.ts. The text itself is
 * never changed: copy, search and export use the whole message.
 */
import { memo, startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { FOLD_PIECE, FOLD_SHOWN, foldEnd, isFolded, pieceEnd, type FoldMode } from '../fold';
import { splitForRendering } from '../markdown-limits';
import { useTranslation } from '../i18n';
import { Markdown } from './Markdown';
import { holdInChat } from './use-stick-to-bottom';

/** What the reader asked for: the first part, some more pieces, or everything (added step by step). */
type Unfold = { kind: 'folded' } | { kind: 'more'; pieces: number } | { kind: 'all'; pieces: number };

/** How a piece renders: markdown, plain text, or the plain-text rest of markdown. */
type PieceMode = FoldMode | 'markdown-rest';

/**
 * How a piece starting at `start` renders, and the mode and size its end is cut by. Markdown
 * from `mdEnd` on (where ../markdown-limits.ts `splitForRendering` cuts: nesting too deep, or the
 * renderer's size limit) is shown as plain text, as an unfolded answer shows it.
 */
function pieceMode(mode: FoldMode, start: number, mdEnd: number): { render: PieceMode; cut: FoldMode; size: number } {
  if (mode === 'markdown' && start >= mdEnd) return { render: 'markdown-rest', cut: 'text', size: FOLD_PIECE.text };
  return { render: mode, cut: mode, size: FOLD_PIECE[mode] };
}

/**
 * One piece: plain text (a block-level span, white space as the container sets it, so it may sit
 * in a `<pre>`) or markdown of its own.
 */
const Piece = memo(function Piece({ text, start, end, mode, streaming, first, note }: { text: string; start: number; end: number; mode: PieceMode; streaming: boolean; first: boolean; note: 'size' | 'depth' | null }) {
  const { t } = useTranslation();
  const piece = text.slice(start, end);
  // `fold-later` (not the chat's `later`, which styles its "Show later" button): see conversations.css.
  const className = first ? 'fold-piece' : 'fold-piece fold-later';
  if (mode === 'markdown-rest')
    return (
      <div className={`${className} md-overflow`} data-testid={note ? 'markdown-overflow' : 'fold-piece'}>
        {note && <div className="muted small">{note === 'depth' ? t('markdown.cutForDepth') : t('markdown.cutForSize')}</div>}
        <pre className="md-rest">{piece}</pre>
      </div>
    );
  return mode === 'markdown' ? (
    <div className={className} data-testid="fold-piece">
      <Markdown text={piece} streaming={streaming} blocks={!first} />
    </div>
  ) : (
    <span className={className} data-testid="fold-piece">
      {piece}
    </span>
  );
});

/**
 * @param text the whole text (any length)
 * @param mode plain text, or markdown (each piece rendered by ./Markdown.tsx)
 * @param streaming the text is still arriving (markdown only)
 * @param preClassName plain text only: the pieces go in a `<pre>` of this class (the fold's bar after it), with `preTestId` as its test id
 */
export function FoldedText({ text, mode, streaming = false, preClassName, preTestId }: { text: string; mode: FoldMode; streaming?: boolean; preClassName?: string; preTestId?: string }) {
  const { t } = useTranslation();
  const [unfold, setUnfold] = useState<Unfold>({ kind: 'folded' });
  const bar = useRef<HTMLDivElement>(null);
  // A folded markdown text: where markdown stops (the rest is plain text) and why.
  const split = useMemo(() => {
    if (mode !== 'markdown' || !isFolded(text)) return { end: text.length, reason: null };
    const s = splitForRendering(text);
    return { end: s.markdown.length, reason: s.reason };
  }, [text, mode]);
  // Markdown to the end when nothing was cut (an empty or short text is never "the rest").
  const mdEnd = split.end < text.length ? split.end : Infinity;
  const first = useMemo(() => (mdEnd > 0 ? Math.min(foldEnd(text, mode), mdEnd) : pieceEnd(text, 0, FOLD_SHOWN, 'text')), [text, mode, mdEnd]);
  // The ends of the pieces after the first, cut lazily in order and kept while the text is the
  // same (a streaming text only grows, so its earlier cuts stay valid: they depend on the text before them).
  const cuts = useRef<{ text: string; mode: FoldMode; ends: number[] }>({ text, mode, ends: [] });
  const kept = cuts.current;
  if (kept.text !== text || kept.mode !== mode) {
    const valid = kept.mode === mode && text.startsWith(kept.text.slice(0, kept.ends.at(-1) ?? 0));
    cuts.current = { text, mode, ends: valid ? kept.ends : [] };
  }
  const want = unfold.kind === 'folded' ? 0 : unfold.pieces;
  const known = cuts.current.ends;
  const cutAfter = (at: number): number => {
    const m = pieceMode(mode, at, mdEnd);
    const end = pieceEnd(text, at, m.size, m.cut);
    return at < mdEnd ? Math.min(end, mdEnd) : end;
  };
  while (known.length < want && (known.at(-1) ?? first) < text.length) known.push(cutAfter(known.at(-1) ?? first));
  const ends = known.slice(0, want);
  const shownEnd = ends.length ? ends[ends.length - 1]! : first;
  const rest = text.length - shownEnd;
  const adding = unfold.kind === 'all' && rest > 0;
  // "Show the rest": one more piece per step, each rendered as a transition after the last one is on screen.
  useEffect(() => {
    if (!adding) return;
    const timer = setTimeout(() => startTransition(() => setUnfold((u) => (u.kind === 'all' ? { kind: 'all', pieces: u.pieces + 1 } : u))), 0);
    return () => clearTimeout(timer);
  }, [adding, ends.length]);
  const ask = (next: Unfold): void => {
    // The reader stays where they read; the chat stops following its bottom while this grows.
    if (bar.current) holdInChat(bar.current);
    startTransition(() => setUnfold(next));
  };
  const pieces = [0, first, ...ends];
  const shown = pieces.slice(0, -1).map((start, i) => {
    const m = pieceMode(mode, start, mdEnd).render;
    const note = m === 'markdown-rest' && (i === 0 || pieceMode(mode, pieces[i - 1]!, mdEnd).render !== 'markdown-rest') ? (split.reason ?? 'size') : null;
    return <Piece key={start} text={text} start={start} end={pieces[i + 1]!} mode={m} streaming={streaming} first={i === 0} note={note} />;
  });
  const next = rest > 0 ? cutAfter(shownEnd) - shownEnd : 0;
  return (
    <div className="folded" data-testid="folded" data-total={text.length} data-shown={shownEnd}>
      {preClassName ? <pre className={preClassName} data-testid={preTestId}>{shown}</pre> : shown}
      {first < text.length && (
        <div className="fold-bar" ref={bar} data-testid="fold-bar">
          <span className="muted small" data-testid="fold-note">
            {rest > 0 ? t('fold.hidden', { shown: shownEnd, total: text.length }) : t('fold.allShown', { total: text.length })}
          </span>
          {adding ? (
            <>
              <span className="small" role="status" data-testid="fold-progress">
                {t('fold.showing', { percent: Math.floor((shownEnd / text.length) * 100) })}
              </span>
              <button className="link small" onClick={() => setUnfold({ kind: 'more', pieces: ends.length })}>
                {t('fold.stop')}
              </button>
            </>
          ) : rest > 0 ? (
            <>
              {next < rest && (
                <button className="link small" data-testid="fold-more" onClick={() => ask({ kind: 'more', pieces: ends.length + 1 })}>
                  {t('fold.more', { count: next, n: next })}
                </button>
              )}
              <button className="link small" data-testid="fold-rest" onClick={() => ask({ kind: 'all', pieces: ends.length + 1 })}>
                {t('fold.rest', { count: rest, n: rest })}
              </button>
            </>
          ) : null}
          {shownEnd > first && !adding && (
            <button className="link small" data-testid="fold-less" onClick={() => ask({ kind: 'folded' })}>
              {t('fold.less')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
