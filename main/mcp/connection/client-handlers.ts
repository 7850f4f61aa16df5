/**
 * What a server may ask of this client, and the capabilities that declare it: sampling
 * (`sampling/createMessage`), elicitation in form and URL mode (`elicitation/create`), roots
 * (`roots/list`, `notifications/roots/list_changed`) and server log notifications
 * (docs/ARCHITECTURE.md "Protocol features"). Installed on each new SDK `Client` of a connection;
 * the same answerers take the input requests a server makes inside a 2026-07-28 task.
 */
import type { Client, ClientCapabilities, CreateMessageResult, ElicitResult } from '@modelcontextprotocol/client';
import type { LogEntry } from '../../../preload/contract/index.js';
import type { ProtocolHooks, UrlElicitationParams } from '../protocol/hooks.js';
import { formatLogMessage } from '../protocol/log-format.js';
import type { ElicitHandler, SampleHandler, SamplingRequest } from './types.js';

/** The host's answerers one connection hands server requests to; null = capability not declared. */
export interface ClientHandlers {
  /** The server's configured name, passed to every handler. */
  server: string;
  elicit: ElicitHandler | null;
  sample: SampleHandler | null;
  /** Roots and URL elicitation (main/mcp/protocol/hooks.ts), read when used. */
  protocolHooks: () => ProtocolHooks | null;
  /** Write a line to the server's log. */
  note: (source: LogEntry['source'], text: string) => void;
}

/** The capabilities declared for `h`: form elicitation (with `applyDefaults`), sampling, roots and URL elicitation. */
export function handlerCapabilities(h: ClientHandlers): ClientCapabilities {
  // Form elicitation (MCP spec 2025-06-18 "Elicitation"): the SDK fills in schema defaults for
  // fields the user left out (SEP-1034) when `applyDefaults` is declared.
  return {
    ...(h.elicit ? { elicitation: { form: { applyDefaults: true } } } : {}),
    ...(h.sample ? { sampling: {} } : {}),
    ...protocolCapabilities(h),
  };
}

/** Capabilities of the protocol features: roots with `listChanged`, elicitation's URL mode. */
function protocolCapabilities(h: ClientHandlers): ClientCapabilities {
  if (!h.protocolHooks()) return {};
  return {
    roots: { listChanged: true },
    ...(h.elicit ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {}),
  };
}

/** Register on `client` the request and notification handlers of `h` (see the file header). */
export function installClientHandlers(client: Client, h: ClientHandlers): void {
  if (h.sample) client.setRequestHandler('sampling/createMessage', (req, ctx) => answerSampling(h, req.params, ctx.mcpReq.signal));
  if (h.elicit) client.setRequestHandler('elicitation/create', (req, ctx) => answerElicitation(h, req.params, ctx.mcpReq.signal));
  installProtocolHandlers(client, h);
}

/** A server's `sampling/createMessage` answered through the host's sampler. @throws when sampling is not declared, or the sampler's refusal. */
export async function answerSampling(h: ClientHandlers, params: unknown, signal: AbortSignal): Promise<CreateMessageResult> {
  if (!h.sample) throw new Error('This client does not answer sampling requests.');
  h.note('lifecycle', 'the server asks for a model completion (sampling)');
  const p = params as SamplingRequest;
  const r = await h.sample(h.server, { messages: p.messages, systemPrompt: p.systemPrompt, maxTokens: p.maxTokens, temperature: p.temperature }, signal);
  return { role: 'assistant', content: { type: 'text', text: r.text }, model: r.model, stopReason: r.stopReason } as CreateMessageResult;
}

/** A server's `elicitation/create` (form or URL mode) answered by the user. @throws when elicitation is not declared. */
export async function answerElicitation(h: ClientHandlers, params: unknown, signal: AbortSignal): Promise<ElicitResult> {
  if (!h.elicit) throw new Error('This client does not answer elicitation requests.');
  const p = (params ?? {}) as { message?: unknown; requestedSchema?: Record<string, unknown>; mode?: string };
  if (p.mode === 'url') return answerUrlElicitation(h, params as UrlElicitationParams, signal);
  h.note('lifecycle', 'the server asks the user for input (elicitation)');
  const answer = await h.elicit(h.server, { message: typeof p.message === 'string' ? p.message : '', requestedSchema: p.requestedSchema ?? { type: 'object', properties: {} } }, signal);
  return answer as ElicitResult;
}

/** A server's `roots/list` answered with its roots. @throws when roots are not declared. */
export function answerRoots(h: ClientHandlers): { roots: ReturnType<ProtocolHooks['roots']> } {
  const hooks = h.protocolHooks();
  if (!hooks) throw new Error('This client does not declare roots.');
  const roots = hooks.roots(h.server);
  h.note('lifecycle', `the server asked for its roots (${roots.length})`);
  return { roots };
}

/**
 * One input request a server makes inside a 2026-07-28 task (the Tasks extension's
 * `inputRequests`, as the library hands it over: `kind` + the request's params), answered as
 * the same request outside a task would be.
 * @throws when this client did not declare the capability (the library then answers for it).
 */
export async function answerInputRequest(h: ClientHandlers, request: { kind: string; params?: unknown }, signal: AbortSignal): Promise<unknown> {
  if (request.kind === 'elicitation') return answerElicitation(h, request.params, signal);
  if (request.kind === 'sampling') return answerSampling(h, request.params, signal);
  if (request.kind === 'roots') return answerRoots(h);
  throw new Error(`A task asked for ${request.kind}, which this client does not answer.`);
}

/**
 * Route the server's log notifications to this server's log (rate-limited there), and roots
 * requests and elicitation completions to the hooks. `roots/list` arrives as a request on
 * 2025 revisions and inside an `input_required` result on 2026-07-28; the SDK routes both here.
 */
function installProtocolHandlers(client: Client, h: ClientHandlers): void {
  client.setNotificationHandler('notifications/message', (n) => h.note('server', formatLogMessage(n.params)));
  const hooks = h.protocolHooks();
  if (!hooks) return;
  client.setRequestHandler('roots/list', async () => answerRoots(h));
  client.setNotificationHandler('notifications/elicitation/complete', (n) => {
    h.note('lifecycle', 'the server says a URL interaction finished');
    hooks.elicitationComplete(h.server, n.params.elicitationId);
  });
}

/** A URL-mode `elicitation/create`: the user decides in a dialog; the server gets the action. */
async function answerUrlElicitation(h: ClientHandlers, params: UrlElicitationParams, signal: AbortSignal): Promise<ElicitResult> {
  h.note('lifecycle', 'the server asks the user to open a URL (URL elicitation)');
  const hooks = h.protocolHooks();
  if (!hooks) return { action: 'decline' };
  return { action: await hooks.urlElicit(h.server, params, signal) };
}

/** Tell the server its roots changed (`notifications/roots/list_changed`); logs a failure, never throws. */
export async function sendRootsChanged(client: Client, note: (source: LogEntry['source'], text: string) => void): Promise<void> {
  try {
    await client.sendRootsListChanged();
    note('lifecycle', 'told the server its roots changed');
  } catch (err) {
    note('lifecycle', `could not tell the server its roots changed: ${(err as Error).message}`);
  }
}
