/**
 * Renders GitHub-flavoured markdown from a model or a server, also while it streams, with
 * streamdown (made for streaming AI output: unfinished syntax is completed as it arrives).
 *
 * Safety: streamdown parses raw HTML and then sanitizes it (rehype-sanitize, GitHub's schema):
 * no `<script>`, no event-handler attributes, only http/https/mailto link protocols. On top of
 * that, links are ours: only `http:`/`https:` become links, opened with `window.open(…, noopener)`
 * — in Electron that reaches the window-open handler, which hands http(s) to the system browser
 * (main/ipc/electron.ts) — and anything else renders as inert text. Images from markdown are not
 * loaded (the CSP forbids remote images anyway); they show as a link.
 *
 * Code blocks are highlighted by the window's highlighter (../highlight/: shiki in a Web Worker,
 * with shiki's JavaScript regex engine — no WebAssembly, no eval), so compiling a grammar never
 * blocks the window; a block shows as plain text until its colours arrive.
 *
 * Huge or pathologically nested text is cut (../markdown-limits.ts); the rest is shown as plain
 * text, so the window never freezes.
 */
import { memo, useContext, type ComponentProps, useDeferredValue, useMemo, useState, type AnchorHTMLAttributes, type ImgHTMLAttributes } from 'react';
import { Streamdown, defaultRehypePlugins } from 'streamdown';
import { splitForRendering } from '../markdown-limits';
import { safeExternalUrl } from '../safe-url';
import { useTranslation } from '../i18n';
import { CODE_THEMES, CodeHighlighterContext } from '../highlight/context';
import '../markdown.css';


/** Open an http(s) URL outside the app (system browser in Electron; a new tab in the browser shell). */
export function openExternal(url: string): void {
  if (safeExternalUrl(url)) window.open(url, '_blank', 'noopener,noreferrer');
}

function SafeLink({ href, children, title }: AnchorHTMLAttributes<HTMLAnchorElement> & { node?: unknown }) {
  const { t } = useTranslation();
  const url = safeExternalUrl(href);
  if (!url)
    return (
      <span className="md-link-inert" title={t('markdown.inertLink')}>
        {children}
      </span>
    );
  return (
    <a
      href={url}
      title={title ?? url}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(e) => {
        e.preventDefault();
        openExternal(url);
      }}
    >
      {children}
    </a>
  );
}

function SafeImage({ src, alt }: ImgHTMLAttributes<HTMLImageElement> & { node?: unknown }) {
  const { t } = useTranslation();
  const url = safeExternalUrl(src);
  const label = `${t('markdown.image')}${t('common.colon')}${alt || url || ''}`.trim();
  return url ? <SafeLink href={url}>{label}</SafeLink> : <span className="md-image">{label}</span>;
}

const components = { a: SafeLink, img: SafeImage };
type RehypePlugins = NonNullable<ComponentProps<typeof Streamdown>['rehypePlugins']>;
type Plugin = RehypePlugins[number];

/**
 * streamdown's HTML plugins (raw HTML, then sanitize, then harden), with one change: a link harden
 * refuses (a relative path such as `structure.md`, `javascript:`, `data:`) keeps its text as plain
 * text, and an image it refuses is left out, instead of harden's English " [blocked]" and
 * "[Image blocked: …]" markers, which read as an alarm and were never translated. Links and images
 * harden lets through still go to {@link SafeLink} (opens only http(s)) and {@link SafeImage}.
 */
const rehypePlugins: RehypePlugins = (() => {
  const [harden, options] = defaultRehypePlugins.harden as [Plugin, Record<string, unknown>];
  return [defaultRehypePlugins.raw!, defaultRehypePlugins.sanitize!, [harden, { ...options, linkBlockPolicy: 'text-only', imageBlockPolicy: 'text-only' }] as Plugin];
})();
const controls = { code: { copy: true, download: false }, table: false, mermaid: false, image: false } as const;
const linkSafety = { enabled: false };

/**
 * Markdown text, sanitized, with highlighted code blocks and copy buttons.
 * @param text the markdown (any size; cut per ../markdown-limits.ts)
 * @param streaming true while the text is still arriving (unfinished syntax is completed)
 * @param blocks render block by block (streamdown's block mode) even when not streaming: each block
 *   is a component of its own, so a render in a transition yields between blocks (./FoldedText.tsx)
 */
export const Markdown = memo(function Markdown({ text, streaming = false, blocks = false }: { text: string; streaming?: boolean; blocks?: boolean }) {
  // While text streams in faster than it renders, React skips the stale intermediate values.
  const { t, i18n } = useTranslation();
  // Streamdown's own button texts, in the current language (a new object only when it changes).
  const translations = useMemo(() => ({ copyCode: t('markdown.copyCode'), copied: t('markdown.copied') }), [t, i18n.language]);
  const code = useContext(CodeHighlighterContext);
  const plugins = useMemo(() => (code ? { code } : {}), [code]);
  const deferred = useDeferredValue(text);
  const split = useMemo(() => splitForRendering(deferred), [deferred]);
  // Text that streamed here stays in streamdown's block mode when it ends: switching to 'static'
  // builds another tree, so the whole answer (every code block highlighted again) would render
  // anew in one long task right when it finishes (bench/streaming.ts). Block mode renders only the
  // blocks that changed; unfinished syntax is completed only while the text still streams.
  const [streamed] = useState(streaming);
  const blockMode = streamed || streaming || blocks;
  return (
    <div className="markdown" data-testid="markdown">
      {/* Nothing before the cut (the first line already nests too deeply): no empty rendered box. */}
      {split.markdown.trim() !== '' && (
        <Streamdown
          mode={blockMode ? 'streaming' : 'static'}
          parseIncompleteMarkdown={streaming}
          isAnimating={streaming}
          plugins={plugins}
          components={components}
          rehypePlugins={rehypePlugins}
          controls={controls}
          translations={translations}
          linkSafety={linkSafety}
          shikiTheme={CODE_THEMES}
          lineNumbers={false}
          codeBlockMaxHeight={0}
          tableMaxHeight={0}
        >
          {split.markdown}
        </Streamdown>
      )}
      {split.rest !== null && (
        <div className="md-overflow" data-testid="markdown-overflow">
          <div className="muted small">{split.reason === 'depth' ? t('markdown.cutForDepth') : t('markdown.cutForSize')}</div>
          <pre className="md-rest">{split.rest}</pre>
        </div>
      )}
    </div>
  );
});
