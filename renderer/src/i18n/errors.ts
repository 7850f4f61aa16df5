/**
 * Errors from main in the UI's language. Main's `IpcError` carries a typed `code` (preload/contract
 * `ErrorCode`) and an English `message`; this turns them into the text a user reads.
 * See docs/ARCHITECTURE.md "Languages".
 */
import type { CatalogReason, ErrorCode, ErrorFact, ImportSkip, IpcError, ModelErrorCode, ModelErrorDetail, REASON_TEXT_MAX } from '../../../preload/contract/index.js';
import { factSentences } from './error-facts.js';
import { currentLanguage, t } from './index.js';
import { joinSentences, sentencesText } from './sentence.js';
import { describeIssue } from './validation.js';

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
 * A catalog error with a `reason` (`not_installable`, `missing_runtime`, and `registry_unavailable`,
 * `not_found`, `bundle_invalid` from the registry or a download) is its reason's sentence in every
 * language ({@link describeReason}); an error with a `fact` (a failed start, a taken name, an
 * import that cannot be read) its fact's sentence ({@link describeFact}); a schema or config
 * refusal (`invalid_input` with an `issue`) its issue's sentence ({@link describeIssue}).
 */
export function describeError(e: IpcError): string {
  if ((e as LocalError).said_here) return e.message;
  // A catalog refusal with its structured reason (main checked it against the contract's
  // schema): rendered by code in every language.
  const why = e.reason ? describeReason(e.reason) : '';
  if (why) return why;
  const said = e.fact ? describeFact(e.fact, e.code) : '';
  if (said) return said;
  // A schema refusal: worded by its issue code and path in every language (./validation.ts).
  if (e.code === 'invalid_input' && e.issue) return describeIssue(e.issue);
  if (currentLanguage() === 'en') return e.message;
  const lead = (t as (key: string, o: { defaultValue: string }) => string)(`errors.${e.code}`, { defaultValue: '' });
  if (!lead) return e.message;
  if (GENERIC_CODES.has(e.code) || !e.message) return lead;
  return `${lead}：${e.message}`;
}

/**
 * An error's facts in the current language, as plain text (docs/ARCHITECTURE.md "Languages"): the
 * sentences ./error-facts.ts chooses by the fact's kind and codes, data and anyone's own words as
 * sent; '' for a fact this window does not know.
 */
export function describeFact(f: ErrorFact, code: ErrorCode): string {
  return sentencesText(factSentences(f, code));
}

/** Why an import skips an entry, in the current language (a refused field worded like a form's refusal). */
export function describeImportSkip(w: ImportSkip): string {
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  const o = { interpolation: { escapeValue: false } };
  switch (w.code) {
    case 'invalid_entry':
      return describeIssue(w.issue);
    case 'duplicate_name':
      return tt('importExport.skip_duplicate_name', { other: w.other, ...o });
    case 'given_twice':
      return tt(`importExport.skip_given_twice_${w.map}`, { key: w.key, ...o });
    case 'name_taken':
      return tt(`importExport.skip_name_taken_${w.why}`, { existing: w.existing, ...o });
    case 'command_not_found':
      return tt('importExport.skip_command_not_found', { command: w.command, ...o });
    default:
      return tt(`importExport.skip_${w.code}`);
  }
}

/** The contract's `REASON_TEXT_MAX` (the renderer imports only types from it; the type checks the value). */
const TEXT_MAX: typeof REASON_TEXT_MAX = 200;

/** A registry- or manifest-supplied string for a sentence: cut (it is shown as text, never parsed). */
function capped(v: string): string {
  return v.length > TEXT_MAX ? `${v.slice(0, TEXT_MAX)}…` : v;
}

/** The `catalog.why` key of a reason: its code, or a variant of it that reads differently. */
function whyKey(r: CatalogReason): string {
  if (r.code === 'entry_removed' && r.message) return 'entry_removed_with_message';
  if ((r.code === 'registry_unreachable' || r.code === 'bundle_unreachable') && r.error === 'timeout') return r.code === 'registry_unreachable' ? 'registry_timeout' : 'bundle_timeout';
  return r.code;
}

/**
 * Why something from the catalog cannot be installed, updated or started, or why the registry
 * or a download could not be used, in the current language — with what the user can do about it:
 * `catalog.why.<code>` filled with the reason's fields (each cut to `REASON_TEXT_MAX` characters;
 * the result is plain text — React escapes it), `runtime_missing` by its runtime, a removed
 * entry's registry note in its own sentence, a timeout (`error: 'timeout'`) in its own sentence.
 * An unknown code gives '' (the caller then shows main's message). See docs/ARCHITECTURE.md
 * "Server catalog".
 */
export function describeReason(r: CatalogReason): string {
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  if (r.code === 'runtime_missing') return tt(`catalog.why.runtime_missing.${r.runtime}`, { defaultValue: '' });
  const { code: _code, ...fields } = r;
  const values = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? capped(v) : v]));
  const key = whyKey(r);
  const text = tt(`catalog.why.${key}`, { ...values, defaultValue: '', interpolation: { escapeValue: false } });
  return typeof text === 'string' ? text : '';
}

/**
 * Why a model endpoint failed ("Test connection", a failed run), in the current language: the
 * code's sentence, then its facts — a redirect, the network error, the HTTP status. The provider's
 * own words (`detail.provider_message`) are not in it: a view shows them as sent, marked as the
 * provider's (components/ModelErrorText.tsx). A detail from an older entry may be missing.
 */
export function describeModelError(code: ModelErrorCode, detail: ModelErrorDetail | undefined): string {
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  const parts = [tt(`modelErrors.${code}`, { defaultValue: tt('modelErrors.unknown') })];
  if (detail?.redirected) parts.push(tt('modelErrors.redirected'));
  const because: string[] = [];
  if (detail?.system_code) because.push(tt(`serverState.net_${detail.system_code}`, { defaultValue: detail.system_code }));
  if (typeof detail?.http_status === 'number') because.push(`HTTP ${detail.http_status}`);
  if (because.length) parts.push(tt('modelErrors.because', { why: because.join(tt('importExport.listSep')), interpolation: { escapeValue: false } }));
  return parts.reduce((first, then) => joinSentences(first, then));
}
