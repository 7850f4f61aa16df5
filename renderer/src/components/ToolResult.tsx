/**
 * A tool call's result and progress, as shown in its card: text that looks like markdown is
 * rendered as markdown (./Markdown.tsx, sanitized), other text stays preformatted (JSON, logs);
 * images are shown as images; a resource URI a server returned opens in the resource viewer when
 * it may (./ResourceViewer.tsx); while the call runs, the server's progress notifications
 * (MCP "Utilities: Progress") show as a progress bar with its numbers and message.
 */
import type { ContentView } from '../../../preload/contract/index.js';
import { looksLikeMarkdown } from '../markdown-limits';
import { FoldedText } from './FoldedText';
import { ResourceLink } from './ResourceViewer';
import { resourceUriOfText } from '../resource-links';
import { parseStructured, StructuredResult } from './StructuredResult';
import { formatNumber, useTranslation } from '../i18n';

/** The latest progress of a running call (numbers as the server sent them). */
export interface ToolProgressView {
  progress: number;
  total: number | null;
  message: string | null;
}


const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp|bmp|avif|svg\+xml)$/i;

/** A progress number in the current language, at most 2 decimals. */
function fmt(n: number): string {
  return formatNumber(n, 2);
}

/** A progress bar: determinate when the server sent a total, else indeterminate. */
export function ToolProgressBar({ progress }: { progress: ToolProgressView }) {
  const { t } = useTranslation();
  const known = progress.total !== null && progress.total > 0;
  const numbers = known ? `${fmt(progress.progress)} / ${fmt(progress.total!)}` : fmt(progress.progress);
  return (
    <div className="tool-progress" data-testid="tool-progress">
      {known ? (
        <progress aria-label={t('tool.progress')} value={Math.min(progress.progress, progress.total!)} max={progress.total!} />
      ) : (
        <progress aria-label={t('tool.progress')} />
      )}
      <span className="tool-progress-text">
        <span className="mono" data-testid="tool-progress-numbers">{numbers}</span>
        {progress.message && <span data-testid="tool-progress-message"> · {progress.message}</span>}
      </span>
    </div>
  );
}

/**
 * A tool's result content, and its progress while it runs.
 * @param content the result (text, images); empty while running
 * @param progress the latest progress notification, or null
 */
export function ToolResult({ content, progress, server }: { content: ContentView[]; progress: ToolProgressView | null; server?: string }) {
  const { t } = useTranslation();
  return (
    <div className="tool-result">
      {progress && <ToolProgressBar progress={progress} />}
      {content.map((c, i) => {
        if (c.type === 'text' && server !== undefined) {
          // `[resource: <uri>]` is what main makes of a resource link or an embedded resource.
          const uri = resourceUriOfText(c.text);
          if (uri) return <ResourceLink key={i} server={server} uri={uri} prefix={c.text.trim().startsWith('[resource link:') ? '[resource link:' : '[resource:'} />;
        }
        if (c.type === 'text') {
          // JSON (a tool's structured output) is laid out as a table or fields (./StructuredResult.tsx).
          const structured = parseStructured(c.text);
          if (structured !== null) return <StructuredResult key={i} value={structured} raw={c.text} />;
          // Long text is folded (./FoldedText.tsx): the first part, the rest on request.
          return looksLikeMarkdown(c.text) ? <FoldedText key={i} text={c.text} mode="markdown" /> : <FoldedText key={i} text={c.text} mode="text" preClassName="tool-text" />;
        }
        if (!IMAGE_TYPE.test(c.mimeType))
          return (
            <div key={i} className="muted small">
              {t('tool.unsupportedImageType', { type: c.mimeType.slice(0, 64) })}
            </div>
          );
        return <img key={i} className="tool-image" alt={t('tool.imageAlt')} src={`data:${c.mimeType};base64,${c.data}`} />;
      })}
    </div>
  );
}
