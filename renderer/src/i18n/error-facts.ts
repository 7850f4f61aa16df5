/**
 * An error's facts (preload/contract `ErrorFact`) as sentences in the UI's language
 * (docs/ARCHITECTURE.md "Languages"): each sentence chosen by the fact's kind and codes, filled
 * with its data — names, URIs, paths, OAuth error codes — and anyone's own words as sent, marked as
 * such ({@link Sentence}). components/ErrorText.tsx shows them as elements; ./errors.ts as text.
 */
import type { ErrorCode, ErrorFact, SignInFailure } from '../../../preload/contract/index.js';
import { formatBytes } from './format.js';
import { t } from './index.js';
import { data, said, type Sentence } from './sentence.js';
import { failureSentences } from './server-state.js';

/** A system error code the window has words for (`errors.errno.*`). */
const ERRNO_WORDED: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOENT', 'ENOTDIR', 'EISDIR']);

/** The sentences of a sign-in that did not finish: why, then the authorization server's own words or what happened. */
export function signInSentences(f: SignInFailure): Sentence[] {
  switch (f.code) {
    case 'timeout':
      return [{ k: 'signIn.timeout', slots: { seconds: f.seconds } }];
    case 'port_in_use':
      return [{ k: 'signIn.port_in_use', slots: { port: data(String(f.port)) } }];
    case 'denied':
    case 'refused': {
      const first: Sentence = { k: f.code === 'denied' ? 'signIn.denied' : `signIn.refused_${f.step}`, slots: { error: data(f.oauth_error) } };
      return f.said ? [first, { k: 'signIn.serverSaid', slots: { said: said(f.said) } }] : [first];
    }
    case 'issuer_mismatch':
      return [{ k: `signIn.issuer_mismatch_${f.where}`, slots: {} }];
    case 'unsafe_url':
      return [{ k: `signIn.unsafe_url_${f.what}`, slots: { url: data(f.url ?? ''), field: data(f.field ?? '') } }];
    case 'fetch_refused':
      return [{ k: `signIn.fetch_refused_${f.why}`, slots: { url: data(f.url), max: f.max_bytes ?? 0 } }];
    case 'needs_browser':
      return [{ k: `signIn.needs_browser_${f.reason}`, slots: {} }];
    case 'refresh_failed':
    case 'failed': {
      const first: Sentence = { k: `signIn.${f.code}`, slots: {} };
      return f.said ? [first, { k: 'signIn.whatHappened', slots: { said: said(f.said) } }] : [first];
    }
    default:
      return [{ k: `signIn.${f.code}`, slots: {} }];
  }
}

/**
 * The sentences of an error's facts. `code` tells a failed start of an edit (`start_failed`:
 * the settings were not saved) from a failed check of a command.
 */
export function factSentences(f: ErrorFact, code: ErrorCode): Sentence[] {
  switch (f.kind) {
    case 'server_failure': {
      const facts = failureSentences(f.failure);
      return code === 'start_failed' ? [{ k: 'errors.notSavedEdit', slots: {} }, ...facts] : facts;
    }
    case 'name_taken':
      return [{ k: `errors.nameTaken_${f.why}`, slots: { name: data(f.name), existing: data(f.existing) } }];
    case 'import':
      return [{ k: `importExport.problem_${f.problem}`, slots: {} }];
    case 'server_unavailable':
      return [{ k: `errors.server_${f.why}`, slots: { server: data(f.server) } }];
    case 'server_refused':
      return [{ k: 'errors.server_refused', slots: { server: data(f.server), said: said(f.said) } }];
    case 'prompt_unknown':
      return [{ k: 'errors.promptUnknown', slots: { server: data(f.server), prompt: data(f.prompt) } }];
    case 'prompt_arguments':
      return [{ k: 'errors.promptArguments', slots: { prompt: data(f.prompt), missing: data(f.missing.join(t('importExport.listSep'))) } }];
    case 'resource_refused':
      return [{ k: `errors.resourceRefused_${f.why}`, slots: { uri: data(f.uri), server: data(f.server) } }];
    case 'resource_too_large':
      return [{ k: 'errors.resourceTooLarge', slots: { size: formatBytes(f.size_bytes), limit: formatBytes(f.limit_bytes) } }];
    case 'resource_empty':
      return [{ k: 'errors.resourceEmpty', slots: {} }];
    case 'no_sign_in':
      return [{ k: 'errors.noSignIn', slots: { server: data(f.server) } }];
    case 'no_log_levels':
      return [{ k: 'errors.noLogLevels', slots: { server: data(f.server) } }];
    case 'rename_failed':
      return [
        { k: 'errors.renameFailed', slots: { server: data(f.server), to: data(f.to), record: t(`errors.renameRecord.${f.record}`) } },
        { k: 'errors.systemSaid', slots: { said: said(f.said) } },
      ];
    case 'shutting_down':
      return [{ k: 'errors.shuttingDown', slots: {} }];
    case 'edit_superseded':
      return [{ k: 'errors.editSuperseded', slots: { server: data(f.server) } }];
    case 'sign_in':
      return signInSentences(f.failure);
    case 'profile_unknown':
      return [{ k: 'errors.profileUnknown', slots: {} }];
    case 'profile_name_taken':
      return [{ k: 'errors.profileNameTaken', slots: { name: data(f.name) } }];
    case 'no_model':
      return [{ k: 'errors.noModel', slots: {} }];
    case 'conversation_unknown':
      return [{ k: 'errors.conversationUnknown', slots: {} }];
    case 'conversation_busy':
      return [{ k: 'errors.conversationBusy', slots: {} }];
    case 'not_editable':
      return [{ k: 'errors.notEditable', slots: {} }];
    case 'write_failed':
      return f.errno && ERRNO_WORDED.has(f.errno)
        ? [{ k: 'errors.writeFailed', slots: { path: data(f.path), why: t(`errors.errno.${f.errno as 'EACCES'}`) } }]
        : [{ k: 'errors.writeFailedSaid', slots: { path: data(f.path), errno: data(f.errno ?? '?') } }];
    case 'catalog_input':
      return [
        {
          k: `errors.catalogInput_${f.problem}`,
          slots: { label: data(f.label ?? ''), choices: data(f.choices.join(t('importExport.listSep'))), min: f.min ?? '…', max: f.max ?? '…' },
        },
      ];
    default:
      // A fact a newer core sends: nothing to say here (the caller falls back to main's message).
      return [];
  }
}
