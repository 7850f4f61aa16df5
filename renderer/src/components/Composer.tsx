/**
 * The message box with prompts and resources (docs/ARCHITECTURE.md "Prompts and resources in
 * chat"): `/` lists the prompts of ready servers, `@` (or the Attach button) their resources and
 * resource templates — filtered as the user types, chosen with the arrow keys and Enter. A prompt
 * or template opens a small argument form (./ArgumentForm.tsx); attached resources show as chips
 * and are sent with the message as references that main resolves. The text typed is the open
 * conversation's draft in the store (../store/drafts.ts), so it waits there while the user is in
 * another conversation or in Settings, and goes once it is sent.
 */
import { useEffect, useMemo, useState, type RefObject } from 'react';
import type { LIMITS, ModelProfileView, ResourceTemplateView, ServerView } from '../../../preload/contract/index.js';
import { useApp } from '../store';
import { activeProfile } from '../store/settings';
import { draftKey, openAttachments, openDraft, type AttachmentChip } from '../store/drafts';
import { attachedTextOverflow } from '../attachment-fit';
import { useTranslation } from '../i18n';
import { expandUriTemplate } from '../uri-template';
import { ArgumentForm } from './ArgumentForm';
import { matchesFilter as matches, menuFor, menuStays, type Menu } from './composer-menu';

type PromptInfo = ServerView['prompts'][number];
type ResourceInfo = ServerView['resources'][number];

/** One entry of the menu. */
type Entry =
  | { kind: 'prompt'; key: string; server: string; prompt: PromptInfo }
  | { kind: 'resource'; key: string; server: string; resource: ResourceInfo }
  | { kind: 'template'; key: string; template: ResourceTemplateView };

/** The open argument form. */
type Form = { kind: 'prompt'; server: string; prompt: PromptInfo } | { kind: 'template'; template: ResourceTemplateView } | null;

/** Most entries listed at once. */
const MENU_MAX = 50;

/** The contract's `LIMITS.chatText`: the most characters one message may have (the type checks the value). */
const TEXT_MAX: (typeof LIMITS)['chatText'] = 200_000;
/** The contract's `LIMITS.attachedText`: the most characters of a text attached as a file. */
const ATTACH_MAX: (typeof LIMITS)['attachedText'] = 1_000_000;
/** From this many characters on, the composer shows how many it has. */
const COUNTER_FROM = Math.round(TEXT_MAX * 0.9);

/** Which trigger a menu belongs to (an Escape closes it until that trigger is gone). */
function menuKey(m: Menu): string | null {
  return m ? (m.kind === 'prompts' ? 'prompts' : `resources:${m.start}`) : null;
}

/**
 * Text attached as a file that cannot fit the model's context window even alone: said as soon as it
 * is attached, with the numbers (./attachment-fit.ts), before a send is refused for it.
 */
function AttachmentFit({ chars, profile }: { chars: number; profile: ModelProfileView | null }) {
  const { t } = useTranslation();
  const over = chars > 0 && profile?.configured ? attachedTextOverflow(chars, profile.context_window) : null;
  if (!over || !profile) return null;
  const values = { model: profile.model, sent: over.sentChars, tokens: over.tokens, window: over.window, room: over.room, reserve: over.reserve };
  return (
    <div className="attachment-fit field-error" role="alert" data-testid="attachment-fit">
      {over.sentChars < over.chars ? t('composer.attachTooLargeCut', values) : t('composer.attachTooLarge', values)}
      {profile.context_window_source === 'default' && <> {t('composer.attachWindowGuess')}</>}
    </div>
  );
}

/** The composer: chips, the menu, the argument form, the text box, Attach and Send/Stop. */
export function Composer({ composerRef, running }: { composerRef: RefObject<HTMLTextAreaElement | null>; running: boolean }) {
  const { t } = useTranslation();
  const send = useApp((s) => s.send);
  const stop = useApp((s) => s.stop);
  const templates = useApp((s) => s.templates);
  const loadTemplates = useApp((s) => s.loadTemplates);
  const servers = useApp((s) => s.servers);
  const serverOrder = useApp((s) => s.serverOrder);
  const profile = useApp(activeProfile);
  // The open conversation's draft: typed here, kept in the store per conversation.
  const key = useApp(draftKey);
  const text = useApp(openDraft);
  const setDraft = useApp((s) => s.setDraft);
  const clearDraft = useApp((s) => s.clearDraft);
  const setText = (value: string): void => setDraft(key, value);
  const attachments = useApp(openAttachments);
  const attachTo = useApp((s) => s.attach);
  const detachFrom = useApp((s) => s.detach);
  const clearAttachments = useApp((s) => s.clearAttachments);
  const attach = (chip: AttachmentChip): void => attachTo(key, chip);
  const [caret, setCaret] = useState(text.length);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [form, setForm] = useState<Form>(null);
  // Another conversation's draft came in: the caret goes to its end (where the box puts it).
  useEffect(() => {
    setCaret(useApp.getState().drafts[key]?.length ?? 0);
    setDismissed(null);
  }, [key]);
  // Text the app asks to put here (an example prompt of the first-run guide): replace and focus,
  // once — the request is then done, so a composer mounted again (back from Settings) keeps its own text.
  const fill = useApp((s) => s.composerFill);
  const filled = useApp((s) => s.composerFilled);
  useEffect(() => {
    if (!fill) return;
    setDraft(key, fill.text);
    setCaret(fill.text.length);
    filled(fill.seq);
    requestAnimationFrame(() => {
      composerRef.current?.focus();
      composerRef.current?.setSelectionRange(fill.text.length, fill.text.length);
    });
  }, [fill, filled, composerRef, setDraft, key]);

  // The trigger typed before the caret; closed by Escape until that trigger is gone.
  const asked = menuFor(text, caret);
  const candidate = dismissed !== null && dismissed === menuKey(asked) ? null : asked;
  const ready = useMemo(() => serverOrder.map((n) => servers[n]).filter((s): s is ServerView => s?.state.kind === 'ready'), [servers, serverOrder]);
  const entries = useMemo<Entry[]>(() => {
    const menu = candidate;
    if (!menu) return [];
    if (menu.kind === 'prompts')
      return ready.flatMap((s) => s.prompts.filter((p) => matches(menu.filter, `${s.name}/${p.name}`, p.description)).map((p) => ({ kind: 'prompt' as const, key: `p:${s.name}/${p.name}`, server: s.name, prompt: p })));
    const res: Entry[] = ready.flatMap((s) =>
      s.resources.filter((r) => matches(menu.filter, `${s.name}/${r.name}`, r.uri, r.description)).map((r) => ({ kind: 'resource' as const, key: `r:${s.name}:${r.uri}`, server: s.name, resource: r })),
    );
    const tpl: Entry[] =
      templates.state === 'ready'
        ? templates.templates.filter((x) => ready.some((s) => s.name === x.server) && matches(menu.filter, `${x.server}/${x.name}`, x.uri_template, x.description)).map((x) => ({ kind: 'template' as const, key: `t:${x.server}:${x.uri_template}`, template: x }))
        : [];
    return [...res, ...tpl];
  }, [candidate?.kind, candidate?.filter, ready, templates]);
  // Open while something matches, or while the filter is still one word (docs: composer-menu.ts).
  const menu = candidate && menuStays(candidate.filter, entries.length) ? candidate : null;
  const shown = entries.slice(0, MENU_MAX);
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));

  const update = (value: string, at: number): void => {
    setText(value);
    setCaret(at);
    setActive(0);
    const m = menuFor(value, at);
    if (dismissed !== null && menuKey(m) !== dismissed) setDismissed(null);
    if (m?.kind === 'resources') void loadTemplates();
  };

  const choose = (e: Entry): void => {
    if (menu?.kind === 'resources') {
      // The `@filter` typed leaves the text; the choice becomes a chip or a form.
      const next = text.slice(0, menu.start) + text.slice(menu.start + 1 + menu.filter.length);
      setText(next);
      setCaret(menu.start);
    } else setText('');
    if (e.kind === 'prompt') setForm({ kind: 'prompt', server: e.server, prompt: e.prompt });
    else if (e.kind === 'template') setForm({ kind: 'template', template: e.template });
    else {
      attach({ ref: { kind: 'resource', server: e.server, uri: e.resource.uri }, label: `${e.server}/${e.resource.name}` });
      composerRef.current?.focus();
    }
  };

  const tooLong = text.length > TEXT_MAX;
  // Attached text the model's window cannot hold even alone: AttachmentFit says so, and it is not sent.
  const attachedChars = attachments.reduce((n, a) => n + (a.ref.kind === 'text' ? a.ref.text.length : 0), 0);
  const attachTooLarge = attachedChars > 0 && !!profile?.configured && attachedTextOverflow(attachedChars, profile.context_window) !== null;
  const blocked = tooLong || attachTooLarge;
  const submit = (): void => {
    const body = text.trim();
    if ((!body && attachments.length === 0) || blocked) return;
    const refs = attachments.map((a) => a.ref);
    const from = key;
    const chips = attachments;
    void send(body, refs).then((ok) => {
      if (!ok) return;
      // Sent: that draft goes (unless more was typed or attached meanwhile), wherever the user is now.
      clearDraft(from, body);
      clearAttachments(from, chips);
    });
  };

  /** The text typed so far becomes an attached text file; the box empties (nothing is lost). */
  const attachText = (): void => {
    attach({ ref: { kind: 'text', name: t('composer.pastedName'), text }, label: t('composer.pastedLabel', { count: text.length }) });
    update('', 0);
    composerRef.current?.focus();
  };

  const openAttach = (): void => {
    const box = composerRef.current;
    const at = box ? box.selectionStart : text.length;
    const needsSpace = at > 0 && !/\s/.test(text[at - 1]!);
    const next = `${text.slice(0, at)}${needsSpace ? ' ' : ''}@${text.slice(at)}`;
    const caretAt = at + (needsSpace ? 2 : 1);
    update(next, caretAt);
    setDismissed(null);
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(caretAt, caretAt);
    });
  };

  const emptyText = menu?.kind === 'prompts' ? t('composer.noPrompts') : t('composer.noResources');

  return (
    <div className="composer-area">
      {form?.kind === 'prompt' && (
        <ArgumentForm
          key={`p:${form.server}/${form.prompt.name}`}
          title={t('composer.promptForm', { name: `${form.server}/${form.prompt.name}` })}
          description={form.prompt.description}
          server={form.server}
          target={{ type: 'ref/prompt', name: form.prompt.name }}
          fields={form.prompt.arguments}
          submitLabel={t('composer.sendPrompt')}
          onCancel={() => {
            setForm(null);
            composerRef.current?.focus();
          }}
          onSubmit={(values) => {
            const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
            const refs = [{ kind: 'prompt' as const, server: form.server, name: form.prompt.name, arguments: args }, ...attachments.map((a) => a.ref)];
            const from = key;
            const chips = attachments;
            void send(text.trim(), refs).then((ok) => {
              if (!ok) return;
              setForm(null);
              clearDraft(from);
              clearAttachments(from, chips);
            });
          }}
        />
      )}
      {form?.kind === 'template' && (
        <ArgumentForm
          key={`t:${form.template.server}:${form.template.uri_template}`}
          title={t('composer.templateForm', { name: `${form.template.server}/${form.template.name}` })}
          description={form.template.description || form.template.uri_template}
          server={form.template.server}
          target={{ type: 'ref/resource', uri: form.template.uri_template }}
          fields={form.template.variables.map((v) => ({ name: v, description: '', required: true }))}
          submitLabel={t('composer.attachResource')}
          onCancel={() => {
            setForm(null);
            composerRef.current?.focus();
          }}
          onSubmit={(values) => {
            const uri = expandUriTemplate(form.template.uri_template, values);
            attach({ ref: { kind: 'resource', server: form.template.server, uri }, label: `${form.template.server}/${uri}` });
            setForm(null);
            composerRef.current?.focus();
          }}
        />
      )}
      {attachments.length > 0 && (
        <ul className="chips" aria-label={t('composer.attachments')}>
          {attachments.map((a, i) => (
            <li key={a.ref.kind === 'resource' ? `${a.ref.server}:${a.ref.uri}` : `text:${i}`} className="chip" data-testid="attachment-chip" title={a.ref.kind === 'resource' ? a.ref.uri : a.label}>
              <span className="chip-kind">{a.ref.kind === 'resource' ? t('composer.resourceChip') : t('composer.textChip')}</span> {a.label}
              <button className="chip-remove" aria-label={t('composer.removeAttachment', { name: a.label })} onClick={() => detachFrom(key, i)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <AttachmentFit chars={attachedChars} profile={profile} />
      <div className="composer-input">
        {menu && (
          <div className="composer-menu" data-testid="composer-menu">
            <div className="label">{menu.kind === 'prompts' ? t('composer.menuPrompts') : t('composer.menuResources')}</div>
            {menu.kind === 'resources' && templates.state === 'loading' && <div className="muted small">{t('composer.loadingTemplates')}</div>}
            {shown.length === 0 ? (
              <div className="muted small">{menu.filter ? t('composer.noMatch', { filter: menu.filter }) : emptyText}</div>
            ) : (
              <ul role="listbox" id="composer-menu-list" aria-label={menu.kind === 'prompts' ? t('composer.menuPrompts') : t('composer.menuResources')}>
                {shown.map((e, i) => (
                  <li
                    key={e.key}
                    id={`composer-option-${i}`}
                    role="option"
                    aria-selected={i === activeIndex}
                    className={i === activeIndex ? 'active' : ''}
                    onMouseDown={(ev) => ev.preventDefault()}
                    onMouseEnter={() => setActive(i)}
                    onClick={() => choose(e)}
                  >
                    {e.kind === 'prompt' && (
                      <>
                        <span className="mono">/{e.server}/{e.prompt.name}</span>
                        {e.prompt.description && <span className="muted small"> — {e.prompt.description}</span>}
                      </>
                    )}
                    {e.kind === 'resource' && (
                      <>
                        <span className="mono">@{e.server}/{e.resource.name}</span>
                        <span className="muted small"> — {e.resource.description || e.resource.uri}</span>
                      </>
                    )}
                    {e.kind === 'template' && (
                      <>
                        <span className="mono">@{e.template.server}/{e.template.name}</span>
                        <span className="muted small"> — {t('composer.menuTemplates')}{t('common.colon')}{e.template.uri_template}</span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <textarea
          ref={composerRef}
          aria-label={t('chat.message')}
          placeholder={t('chat.messagePlaceholder')}
          value={text}
          aria-activedescendant={menu && shown.length ? `composer-option-${activeIndex}` : undefined}
          onChange={(e) => {
            update(e.target.value, e.target.selectionStart);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={(e) => {
            if (menu && !e.nativeEvent.isComposing) {
              if (e.key === 'ArrowDown' && shown.length) {
                e.preventDefault();
                setActive((activeIndex + 1) % shown.length);
                return;
              }
              if (e.key === 'ArrowUp' && shown.length) {
                e.preventDefault();
                setActive(activeIndex <= 0 ? shown.length - 1 : activeIndex - 1);
                return;
              }
              if ((e.key === 'Enter' || e.key === 'Tab') && shown.length) {
                e.preventDefault();
                choose(shown[activeIndex]!);
                return;
              }
              if (e.key === 'Escape') {
                e.preventDefault();
                setDismissed(menuKey(menu));
                return;
              }
            }
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
      </div>
      {text.length >= COUNTER_FROM && (
        <div className={tooLong ? 'composer-count field-error' : 'composer-count muted small'} data-testid="composer-count" role={tooLong ? 'alert' : undefined}>
          {tooLong ? t('composer.tooLong', { count: text.length, max: TEXT_MAX }) : t('composer.count', { count: text.length, max: TEXT_MAX })}{' '}
          {text.length <= ATTACH_MAX ? (
            <button className="link" onClick={attachText}>
              {t('composer.attachAsFile')}
            </button>
          ) : (
            t('composer.tooLongToAttach', { max: ATTACH_MAX })
          )}
        </div>
      )}
      <button onClick={openAttach} title={t('composer.attachTitle')}>
        {t('composer.attach')}
      </button>
      {running ? (
        <button className="danger" onClick={() => void stop()} title={t('chat.stopTitle')}>
          {t('chat.stop')}
        </button>
      ) : (
        <button className="primary" onClick={submit} disabled={(!text.trim() && attachments.length === 0) || blocked}>
          {t('chat.send')}
        </button>
      )}
    </div>
  );
}
