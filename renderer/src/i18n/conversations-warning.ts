/**
 * A warning about the conversation database (preload/contract `ConversationsWarning`: the search
 * index was rebuilt, the file was set aside, or conversations live in memory only) in the UI's
 * language, worded by its code. See docs/ARCHITECTURE.md "Conversations".
 */
import type { ConversationsRecovered, ConversationsWarning } from '../../../preload/contract/index.js';
import { t } from './index.js';

/** What was copied into the new database, as a sentence (empty when there is nothing to say). */
function recoveredText(w: Exclude<ConversationsWarning, { code: 'index_rebuilt' }>): string {
  if (w.problem !== 'damaged') return '';
  const r: ConversationsRecovered | null = w.recovered;
  if (!r) return t('conversationsDb.nothingRecovered');
  const copied = t('conversationsDb.recovered', {
    conversations: t('conversationsDb.recoveredConversations', { count: r.conversations }),
    entries: t('conversationsDb.recoveredEntries', { count: r.entries }),
  });
  return r.complete ? copied : `${copied} ${t('conversationsDb.incomplete')}`;
}

/** The user-facing text of a conversation database warning, in the current language. */
export function describeConversationsWarning(w: ConversationsWarning): string {
  if (w.code === 'index_rebuilt') return t('conversationsDb.indexRebuilt');
  const problem = t(`conversationsDb.problem.${w.problem}`);
  const head =
    w.code === 'set_aside'
      ? t('conversationsDb.setAside', { problem, kept: w.kept_as, dir: w.dir })
      : w.kept_as
        ? t('conversationsDb.memoryOnlyKept', { problem, kept: w.kept_as, dir: w.dir })
        : t('conversationsDb.memoryOnlyLeft', { problem, dir: w.dir });
  const more = recoveredText(w);
  return more ? `${head} ${more}` : head;
}
