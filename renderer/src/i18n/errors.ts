/**
 * Errors from main in the UI's language. Main's `IpcError` carries a typed `code` (preload/contract
 * `ErrorCode`) and an English `message`; this turns them into the text a user reads.
 * See docs/ARCHITECTURE.md "Languages".
 */
import type { ErrorCode, IpcError, ModelErrorCode } from '../../../preload/contract/index.js';
import { currentLanguage, t } from './index.js';

/** An error this window makes itself (lost bridge, stale token): its message is already translated. */
export type LocalError = IpcError & { said_here?: true };

/**
 * Codes whose message from main is a generic sentence: in another language than English the
 * translated sentence replaces it. For every other code main's message is specific (which field,
 * which server, what the process printed): it is kept, after a translated lead.
 */
const GENERIC_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['unknown_channel', 'busy', 'write_failed', 'approval_invalid', 'internal', 'gone', 'sign_in_cancelled', 'sign_in_timeout']);

/**
 * The user-facing text of an error from main, in the current language. English: main's message
 * as is (it is written in English and usually the most specific). Other languages: the code's
 * translated sentence for generic codes; for specific ones the translated lead, then main's
 * English message as the detail (`lead：detail`). Unknown codes fall back to main's message.
 */
export function describeError(e: IpcError): string {
  if (currentLanguage() === 'en' || (e as LocalError).said_here) return e.message;
  const lead = (t as (key: string, o: { defaultValue: string }) => string)(`errors.${e.code}`, { defaultValue: '' });
  if (!lead) return e.message;
  if (GENERIC_CODES.has(e.code) || !e.message) return lead;
  return `${lead}：${e.message}`;
}


/**
 * Why a model endpoint failed ("Test connection"), in the current language: English shows main's
 * message as is; another language a translated lead by `code`, then main's message (it names the
 * address, the status, what answered) as the detail.
 */
export function describeModelError(code: ModelErrorCode, message: string): string {
  if (currentLanguage() === 'en') return message;
  const lead = (t as (key: string, o: { defaultValue: string }) => string)(`modelErrors.${code}`, { defaultValue: '' });
  if (!lead) return message;
  return message ? `${lead}：${message}` : lead;
}
