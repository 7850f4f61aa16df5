import type { CatalogReason } from '../../../preload/contract/index.js';
import { useTranslation } from '../i18n';
import { describeReason } from '../i18n/errors';

/**
 * A structured catalog reason — a refusal, or why the registry or a download could not be used —
 * as its sentence in the current language (`describeReason`; plain text, never markup), tagged
 * with its code for tests (docs/ARCHITECTURE.md "Server catalog").
 */
export function CatalogWhy({ reason }: { reason: CatalogReason }) {
  useTranslation(); // re-render when the language changes
  return (
    <span data-testid="catalog-why" data-code={reason.code}>
      {describeReason(reason)}
    </span>
  );
}
