/**
 * App-wide warnings (preload/contract `AppWarning`) as sentences in the UI's language
 * (docs/ARCHITECTURE.md "Languages"): each chosen by its code, file paths, server names and the
 * system's own words shown as sent and marked as data ({@link Sentence}); a skipped entry of the
 * server list says why as an import does (./errors.ts `describeImportSkip`).
 */
import type { AppWarning, SecretPlace } from '../../../preload/contract/index.js';
import { describeImportSkip } from './errors.js';
import { data, said, type Sentence } from './sentence.js';

/** The sentence of a stored secret that is missing, by which secret it is. */
function secretMissing(server: string, s: SecretPlace): Sentence {
  return { k: `appWarning.secretMissing_${s.kind}`, slots: { server: data(server), ...('name' in s ? { name: data(s.name) } : {}) } };
}

/** The sentences of an app warning. */
export function appWarningSentences(w: AppWarning): Sentence[] {
  switch (w.code) {
    case 'config_unreadable':
      return [
        { k: 'appWarning.configUnreadable', slots: { file: data(w.file) } },
        { k: 'errors.systemSaid', slots: { said: said(w.said) } },
      ];
    case 'config_unusable':
      return [{ k: `appWarning.configUnusable_${w.problem}`, slots: { file: data(w.file) } }];
    case 'config_set_aside':
      return [{ k: 'appWarning.configSetAside', slots: { kept: data(w.kept_as) } }];
    case 'config_skipped':
      return [{ k: 'appWarning.configSkipped', slots: {} }, ...w.entries.map((e): Sentence => ({ k: 'importExport.skippedOne', slots: { name: data(e.name), reason: describeImportSkip(e.why) } }))];
    case 'secret_missing':
      return [secretMissing(w.server, w.secret)];
    case 'roots_unreadable':
      return [
        { k: 'appWarning.rootsUnreadable', slots: { file: data(w.file) } },
        { k: 'errors.systemSaid', slots: { said: said(w.said) } },
      ];
    case 'link_declined':
      return [{ k: 'appWarning.linkDeclined', slots: { server: data(w.server) } }];
    default:
      // A warning a newer core sends: nothing to say here.
      return [];
  }
}
