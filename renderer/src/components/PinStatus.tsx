import type { ToolDiffEntry, ToolPinStatus } from '../../../preload/contract/index.js';
import { formatDateTime, useTranslation } from '../i18n';

/**
 * A tool's pin status as main sends it (docs/ARCHITECTURE.md "Pinned tool definitions"): nothing
 * for `pinned`, a "new" or "changed" badge otherwise, with its detail as the title.
 */
export function PinBadge({ pin }: { pin: ToolPinStatus }) {
  const { t } = useTranslation();
  if (pin.kind === 'pinned') return null;
  return (
    <span className="badge hint-warn" data-testid="tool-pin" data-pin={pin.kind} title={pin.kind === 'new' ? t('pins.new_detail') : t('pins.changed_detail', { time: formatDateTime(pin.pinned_at) })}>
      {t(`pins.${pin.kind}`)}
    </span>
  );
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'title'] as const;
type KnownHint = (typeof HINTS)[number];
const isKnownHint = (h: string): h is KnownHint => (HINTS as readonly string[]).includes(h);

/** One diff entry as a line of text and, for text and schema parts, the before/after values. */
function DiffLine({ entry: e }: { entry: ToolDiffEntry }) {
  const { t } = useTranslation();
  const schema = (s: 'input' | 'output') => t(`pins.schema_${s}`);
  const value = (v: string | boolean | null) => (v === null ? t('pins.notDeclared') : String(v));
  const pair = (before: string | null, after: string | null) => (
    <div className="pin-diff-pair">
      <pre className="mono small pin-before">{before ?? t('pins.none')}</pre>
      <pre className="mono small pin-after">{after ?? t('pins.none')}</pre>
    </div>
  );
  switch (e.kind) {
    case 'title':
      return <li>{t('pins.diff.title', { before: e.before ?? t('pins.none'), after: e.after ?? t('pins.none') })}</li>;
    case 'description':
      return (
        <li>
          {t('pins.diff.description')}
          {pair(e.before, e.after)}
        </li>
      );
    case 'property_added':
      return (
        <li>
          {t('pins.diff.property_added', { schema: schema(e.schema), path: e.path })}
          {pair(null, e.after)}
        </li>
      );
    case 'property_removed':
      return (
        <li>
          {t('pins.diff.property_removed', { schema: schema(e.schema), path: e.path })}
          {pair(e.before, null)}
        </li>
      );
    case 'property_changed':
      return (
        <li>
          {t('pins.diff.property_changed', { schema: schema(e.schema), path: e.path })}
          {pair(e.before, e.after)}
        </li>
      );
    case 'required':
      return <li>{t('pins.diff.required', { schema: schema(e.schema), where: e.path ? ` (${e.path})` : '', added: e.added.join(', ') || t('pins.none'), removed: e.removed.join(', ') || t('pins.none') })}</li>;
    case 'schema':
      return (
        <li>
          {t('pins.diff.schema', { schema: schema(e.schema) })}
          {pair(e.before, e.after)}
        </li>
      );
    case 'annotation':
      return <li>{t('pins.diff.annotation', { hint: isKnownHint(e.hint) ? t(`pins.hint.${e.hint}`) : e.hint, before: value(e.before), after: value(e.after) })}</li>;
  }
}

/** What changed in a tool's definition (a `changed` pin), or nothing for other statuses. */
export function PinDiff({ pin }: { pin: ToolPinStatus }) {
  const { t } = useTranslation();
  if (pin.kind !== 'changed') return null;
  return (
    <div className="pin-diff" data-testid="pin-diff">
      {pin.program_changed && <div className="small">{t('pins.programChanged')}</div>}
      {pin.diff.length === 0 ? (
        <div className="muted small">{t('pins.noDiff')}</div>
      ) : (
        <>
          <div className="label">{t('pins.diffTitle')}</div>
          <ul className="small">
            {pin.diff.map((e, i) => (
              <DiffLine key={i} entry={e} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
