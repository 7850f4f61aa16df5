/**
 * A server's state (preload/contract `ServerState`, `ServerFailure`) in the UI's language, worded
 * by its codes (docs/ARCHITECTURE.md "Status"). Main sends facts, never sentences: every sentence
 * is chosen here by kind and reason; only data — a command or URL as configured, a content type,
 * a signal name, the server's own message, its stderr lines — is shown as sent, inside an element
 * marked as data (`translate="no"`; the server's words under the label "The server said:"). The
 * same failure reached as an error (an added server's command not found, an edit that did not
 * start) is worded by the same sentences ({@link FailureFacts}, {@link failureText}).
 */
import type { ReactNode } from 'react';
import type { ServerFailure, ServerRetry, ServerState, ServerView } from '../../../preload/contract/index.js';
import { Fill } from './Fill.js';
import { formatTime, useTranslation } from './index.js';
import { data, SentenceView, sentencesText, type Sentence } from './sentence.js';

/** The sentence for a failure's main fact. */
function failureSentence(f: ServerFailure): Sentence {
  switch (f.kind) {
    case 'spawn_failed':
      return { k: `serverState.spawn_${f.code}`, slots: { command: data(f.command) } };
    case 'timeout':
      return { k: `serverState.timeout_${f.phase}`, slots: { seconds: f.seconds } };
    case 'exited':
      return { k: f.running ? 'serverState.exited_running' : 'serverState.exited_starting', slots: {} };
    case 'auth_failed':
      return { k: 'serverState.auth_failed', slots: { status: f.http_status } };
    case 'connect_failed': {
      const url = data(f.url);
      if (f.reason === 'network') return f.system_code ? { k: 'serverState.connect_network', slots: { url, why: { net: f.system_code } } } : { k: 'serverState.connect_no_answer', slots: { url } };
      if (f.reason === 'http_status') return { k: 'serverState.connect_http_status', slots: { url, status: f.http_status ?? '' } };
      if (f.reason === 'not_mcp') return f.content_type ? { k: 'serverState.connect_not_mcp', slots: { url, type: data(f.content_type) } } : { k: 'serverState.connect_not_mcp_untyped', slots: { url } };
      return { k: `serverState.connect_${f.reason}`, slots: { url } };
    }
    case 'protocol':
      if (f.reason === 'refused') return { k: `serverState.protocol_refused_${f.phase}`, slots: { code: f.rpc_code ?? '' } };
      if (f.reason === 'invalid_answer') return { k: `serverState.protocol_invalid_answer_${f.phase}`, slots: {} };
      return { k: `serverState.protocol_${f.reason}`, slots: {} };
    case 'unknown':
      return { k: 'serverState.unknown', slots: {} };
  }
}

/** The sentences of a failure: its main fact, then how the process ended when known. */
export function failureSentences(f: ServerFailure): Sentence[] {
  const out = [failureSentence(f)];
  if (f.kind === 'exited' && f.exit) out.push(f.exit.signal ? { k: 'serverState.exit_signal', slots: { signal: data(f.exit.signal) } } : { k: 'serverState.exit_code', slots: { code: f.exit.code ?? '' } });
  return out;
}

/** The sentence of the automatic restarts of a failed server. */
function retrySentence(r: ServerRetry): Sentence {
  return r.kind === 'scheduled' ? { k: 'serverState.retry_scheduled', slots: { n: r.attempt, time: formatTime(r.at) } } : { k: 'serverState.gave_up', slots: { n: r.restarts + 1 } };
}

/** What the server itself said, as sent, under a label saying so. */
function Said({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <figure className="server-said" data-testid={`${testId}-block`}>
      <figcaption>{label}</figcaption>
      {children}
    </figure>
  );
}

/** Lines of stderr shown with a failure (the newest of the view's tail). */
const STDERR_SHOWN = 12;

/** A failure as plain text in the current language (its sentences; data as sent, unmarked). */
export function failureText(f: ServerFailure): string {
  return sentencesText(failureSentences(f));
}

/**
 * A failure's sentences (then `children`: what the app does about it), then the server's own
 * message and its last stderr lines as sent, each under a label saying whose words they are.
 */
export function FailureFacts({ failure, stderr, children }: { failure: ServerFailure; stderr: readonly string[]; children?: ReactNode }) {
  const { t } = useTranslation();
  const lines = stderr.slice(-STDERR_SHOWN);
  return (
    <>
      {failureSentences(failure).map((s) => (
        <div key={s.k}>
          <SentenceView s={s} />
        </div>
      ))}
      {children}
      {failure.server_message && (
        <Said label={t('serverState.serverSaid')} testId="server-said">
          <q translate="no" data-testid="server-said">
            {failure.server_message}
          </q>
        </Said>
      )}
      {lines.length > 0 && (
        <Said label={t('serverState.stderr')} testId="server-stderr">
          <pre translate="no" data-testid="server-stderr">
            {lines.join('\n')}
          </pre>
        </Said>
      )}
    </>
  );
}

/**
 * The card's account of a server's state (nothing for `disabled`, `ready` and a first `starting`):
 * an automatic restart under way, the sign-in needed, or the failure — its sentences, the
 * restarts, the server's own message and last stderr lines as sent, the resolved command.
 */
export function ServerStateNotes({ server }: { server: ServerView }) {
  const { t } = useTranslation();
  const state: ServerState = server.state;
  if (state.kind === 'starting' && state.restart !== null)
    return (
      <div className="server-meta" data-testid="server-recovery">
        <Fill k="serverState.restarting" slots={{ n: state.restart }} />
      </div>
    );
  if (state.kind === 'needs_auth')
    return (
      <div className="server-error" data-testid="server-error" data-kind={state.reason}>
        {t(`serverState.${state.reason}`)}
      </div>
    );
  if (state.kind !== 'error') return null;
  const f = state.failure;
  return (
    <div className="server-error" data-testid="server-error" data-kind={f.kind}>
      <FailureFacts failure={f} stderr={server.stderr_tail}>
        {state.retry && (
          <div data-testid="server-recovery">
            <SentenceView s={retrySentence(state.retry)} />
          </div>
        )}
      </FailureFacts>
      {server.resolved_command && (
        <div>
          <SentenceView s={{ k: 'servers.commandWas', slots: { command: data(server.resolved_command) } }} />
        </div>
      )}
    </div>
  );
}
