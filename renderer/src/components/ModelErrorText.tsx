/**
 * Why a model endpoint failed, as the user reads it ("Test connection", a failed run's notice):
 * the code's sentence and its facts in the current language (i18n/errors.ts `describeModelError`),
 * then the provider's own words, if it sent any, as sent and marked as the provider's
 * (docs/ARCHITECTURE.md "Languages").
 */
import type { ModelErrorCode, ModelErrorDetail } from '../../../preload/contract/index.js';
import { useTranslation } from '../i18n';
import { describeModelError } from '../i18n/errors';

/** A model error by its code and detail (a detail from an older entry may be missing). */
export function ModelErrorText({ code, detail }: { code: ModelErrorCode; detail: ModelErrorDetail | undefined }) {
  const { t } = useTranslation();
  const said = typeof detail?.provider_message === 'string' ? detail.provider_message : null;
  return (
    <>
      {describeModelError(code, detail)}
      {said && (
        <span className="provider-said" data-testid="provider-said-block">
          {' '}
          {t('modelErrors.providerSaid')}{' '}
          <q translate="no" data-testid="provider-said">
            {said}
          </q>
        </span>
      )}
    </>
  );
}
