/**
 * Contract → handlers, independent of the carrier (Electron IPC or the browser shell's WebSocket).
 * Every input is validated with the channel's zod schema; every failure becomes a typed
 * `IpcError` value; no handler throws across the boundary.
 */
import os from 'node:os';
import { z } from 'zod';
import { checkFolder } from '../mcp/protocol/folder-check.js';
import { catalogReasonSchema, channels, type CatalogReason, type ChannelName, type ChannelOutput, type Envelope, type ErrorCode, type IpcError, type SignInFailure } from '../../preload/contract/index.js';
import { validationIssue } from '../util/validation-issue.js';
import type { AppCore } from '../core.js';
import { ConversationBusyError, NotConfiguredError, NotEditableError } from '../chat/agent.js';
import { ExportWriteError } from '../chat/conversations/service.js';
import { ConversationInputError, ConversationNotFoundError } from '../chat/conversations/store.js';
import { DuplicateProfileNameError, ProfileInputError, ProfileNotFoundError } from '../chat/profiles.js';
import { testConnection } from '../chat/model-list.js';
import { HostError } from '../mcp/host.js';
import { UnknownElicitationError } from '../mcp/elicitation.js';
import { CatalogInputError } from '../mcp/catalog/mapping.js';
import { NotInstallableError } from '../mcp/catalog/reasons.js';
import { RegistryError } from '../mcp/catalog/registry.js';
import { MissingRuntimeError } from '../mcp/catalog/runtime.js';
import { BundleError } from '../mcp/catalog/bundle.js';
import { ApprovalError } from '../chat/permissions/index.js';
import { signInFailure } from '../mcp/oauth/errors.js';

/** The code of each sign-in failure (the rest are `oauth_failed`); the window words the failure itself. */
const SIGN_IN_CODES: Partial<Record<SignInFailure['code'], ErrorCode>> = {
  cancelled: 'sign_in_cancelled',
  timeout: 'sign_in_timeout',
  denied: 'sign_in_denied',
  port_in_use: 'port_in_use',
  unsafe_url: 'unsafe_authorization_url',
  issuer_mismatch: 'unsafe_authorization_url',
};

function bounded(message: string): string {
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}

/**
 * Who is calling: `signal` is the calling page's lifetime (aborted when that page reloads,
 * navigates or disconnects), given by the carrier; requests that wait on the user or a server for
 * that page (a view's tool call) end with it.
 */
export interface CallerContext {
  signal?: AbortSignal;
}

type Handlers = { [C in ChannelName]: (input: z.output<(typeof channels)[C]['input']>, caller: CallerContext) => Promise<ChannelOutput<C>> | ChannelOutput<C> };

/** The handler of every channel, bound to one core. */
export function createHandlers(core: AppCore, version = '0.1.0'): Handlers {
  const h = core.host;
  return {
    'app.info': () => ({ version, shell: core.opts.shell, state_dir: core.opts.stateDir, warnings: core.startWarnings(), conversations_warning: core.conversationsDb.warning }),
    'app.secretsInfo': () => core.secretsInfo(),
    'servers.list': () => h.list(),
    'servers.get': ({ name }) => h.view(name),
    'servers.add': ({ name, config }) => h.add(name, config),
    'servers.update': ({ name, patch }) => h.update(name, patch),
    'servers.rename': ({ name, new_name }) => h.rename(name, new_name),
    'servers.setEnabled': ({ name, enabled }) => h.setEnabled(name, enabled),
    'servers.restart': ({ name }) => h.restart(name),
    'servers.remove': async ({ name }) => {
      await h.remove(name);
      return { removed: true as const };
    },
    'servers.logs': ({ name }) => h.logs(name),
    'servers.signIn': ({ name }) => h.signIn(name),
    'servers.cancelSignIn': ({ name }) => h.cancelSignIn(name),
    'servers.signOut': ({ name }) => h.signOut(name),
    'servers.export': ({ include_secrets }) => h.exportServers(include_secrets),
    'servers.importPreview': ({ json }) => h.importPreview(json),
    'servers.import': ({ json, replace_existing }) => h.importServers(json, replace_existing),
    'settings.getModel': () => core.settings.view(),
    'settings.setModel': (input) => core.settings.set(input),
    'profiles.list': () => core.profiles.list(),
    'profiles.save': (input) => core.profiles.save(input),
    'profiles.remove': async ({ id }) => {
      await core.profiles.remove(id);
      return { removed: true as const };
    },
    'profiles.setDefault': ({ id }) => core.profiles.setDefault(id),
    'profiles.test': async (input) => testConnection(await core.profiles.testTarget(input)),
    'profiles.detectLocal': () => core.detectLocalModels(),
    'chat.send': async ({ conversation_id, text, profile_id, tool_servers, context }) =>
      core.chat.send(conversation_id, text, profile_id, tool_servers, context?.length ? await core.context.resolve(context) : undefined),
    // Prompts and resources in the composer (main/chat/context/).
    'context.templates': () => core.context.templates(),
    'context.complete': ({ server, ref, argument, context_arguments }) => core.context.complete(server, ref, argument, context_arguments),
    'context.read': ({ server, uri }) => core.context.read(server, uri),
    'context.save': ({ server, uri }) => core.context.save(server, uri),
    'context.subscribe': ({ server, uri }) => core.context.subscribe(server, uri),
    'context.unsubscribe': ({ server, uri }) => core.context.unsubscribe(server, uri),
    // MCP Apps (main/mcp/apps/).
    'apps.view': ({ conversation_id, run_id, call_id, server, tool }, caller) => core.apps.loadView({ conversation_id, run_id, call_id }, server, tool, caller.signal),
    'apps.setViewClosed': ({ conversation_id, run_id, call_id, closed }) => core.apps.setViewClosed({ conversation_id, run_id, call_id }, closed),
    'apps.callTool': async ({ view_instance, tool, arguments: args }, caller) => (await core.apps.callTool(view_instance, tool, args, caller.signal)) as Record<string, unknown>,
    'apps.updateModelContext': ({ view_instance, text }) => core.apps.updateModelContext(view_instance, text),
    'apps.readResource': async ({ view_instance, uri }, caller) => (await core.apps.readResource(view_instance, uri, caller.signal)) as Record<string, unknown>,
    'apps.log': ({ view_instance, level, logger, data }) => core.apps.log(view_instance, { level, data, ...(logger ? { logger } : {}) }),
    'apps.releaseView': ({ view_instance }) => core.apps.releaseView(view_instance),
    'inspector.list': ({ server }) => core.inspector.list(server),
    'inspector.clear': ({ server }) => core.inspector.clear(server),
    'inspector.setRecording': ({ server, on }) => core.inspector.setRecording(server, on),
    'inspector.save': ({ server }) => core.inspector.save(server),
    'inspector.replay': ({ server, seq, arguments: args }, caller) => core.inspector.replay(server, seq, args, caller.signal),
    'conversations.setToolServers': ({ id, servers }) => core.conversations.setToolServers(id, servers),
    'conversations.setProfile': ({ id, profile_id }) => core.conversations.setProfile(id, profile_id),
    'chat.editResend': ({ conversation_id, item_id, text }) => core.chat.editResend(conversation_id, item_id, text),
    'chat.regenerate': ({ conversation_id }) => core.chat.regenerate(conversation_id),
    'chat.stop': ({ conversation_id }) => core.chat.stop(conversation_id),
    'chat.cancelTool': ({ conversation_id, call_id }) => core.chat.cancelTool(conversation_id, call_id),
    'tasks.list': ({ conversation_id }) => ({ tasks: core.tasks.list(conversation_id) }),
    'tasks.cancel': async ({ server, task_id }) => ({ cancelled: await core.tasks.cancel(server, task_id) }),
    'conversations.list': () => core.conversations.list(),
    'conversations.get': ({ id }) => core.conversations.get(id),
    'conversations.rename': ({ id, title }) => core.conversations.rename(id, title),
    'conversations.remove': async ({ id }) => {
      await core.conversations.remove(id);
      return { removed: true as const };
    },
    'conversations.search': ({ query }) => core.conversations.search(query),
    'conversations.export': ({ id, format }) => core.conversations.export(id, format),
    'elicitation.respond': ({ id, action, content }) => {
      core.elicitation.respond(id, action === 'accept' ? { action, content: content ?? {} } : { action });
      return { ok: true as const };
    },
    'sampling.respond': ({ id, approve }) => {
      core.sampling.broker.respond(id, approve);
      return { ok: true as const };
    },
    'permissions.getMode': () => core.permissions.getMode(),
    'permissions.setMode': ({ mode }) => core.permissions.setMode(mode),
    'servers.setToolSettings': ({ name, tool, settings }) => h.setToolSettings(name, tool, settings),
    'servers.bulkToolSettings': ({ name, action }) => h.bulkToolSettings(name, action),
    'servers.acceptToolDefinitions': ({ name, tools }) => h.acceptToolDefinitions(name, tools),
    'pins.getSettings': () => h.pinSettings(),
    'pins.setSettings': ({ hold_unaccepted }) => h.setPinSettings({ hold_unaccepted }),
    'approvals.list': () => core.permissions.pending(),
    'approvals.respond': ({ id, decision, reason, args_sha256 }) => {
      core.permissions.broker.answer(id, { decision, ...(reason !== undefined ? { reason } : {}) }, args_sha256);
      return { ok: true as const };
    },
    'catalog.getSettings': async () => ({ registry_url: await core.catalog.store.registryUrl() }),
    'catalog.setSettings': async ({ registry_url }) => ({ registry_url: await core.catalog.store.setRegistryUrl(registry_url) }),
    'catalog.search': ({ query, cursor, include_deprecated }) => core.catalog.search(query, cursor, include_deprecated ?? false),
    'catalog.icon': async ({ url }) => ({ data_url: await core.catalog.icons.get(url) }),
    'catalog.install': ({ name, version, option, server_name, values }) => core.catalog.install(name, version, option, server_name, values),
    'catalog.diff': () => core.catalog.diff(),
    'catalog.update': ({ server_name, values }) => core.catalog.update(server_name, values),
    'catalog.bundleInspect': ({ data_base64 }) => core.catalog.bundles.inspect(Buffer.from(data_base64, 'base64')),
    'catalog.fetchBundle': ({ name, version, option }) => core.catalog.fetchBundle(name, version, option),
    'catalog.bundleInstall': ({ token, server_name, values }) => core.catalog.bundles.install(token, server_name, values),
    // Protocol features (main/mcp/protocol/service.ts).
    'servers.setLogLevel': ({ name, level }) => core.protocol.setLogLevel(name, level),
    'elicitation.respondUrl': async ({ id, action }) => ({ ok: true as const, ...(await core.protocol.urls.respond(id, action)) }),
    'roots.getDefault': () => core.protocol.defaultRoots(),
    'roots.setDefault': ({ roots }) => core.protocol.setDefaultRoots(roots),
    'roots.pickFolder': () => core.protocol.pickFolder(),
    'roots.checkFolder': ({ path }) => checkFolder(path, os.homedir()),
  };
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** `{reason}` when it fits the contract's schema (then the window renders it), else nothing (the window shows `message`). */
function checkedReason(r: CatalogReason | undefined): { reason?: CatalogReason } {
  if (!r) return {};
  const parsed = catalogReasonSchema.safeParse(r);
  return parsed.success ? { reason: parsed.data } : {};
}

/** Map any thrown value to a typed, secret-free error. */
export function toIpcError(err: unknown): IpcError {
  // A host error's facts (a refused field's issue, a failed start, a taken name) are what the window words.
  if (err instanceof HostError) return { code: err.code, message: err.message, ...(err.field ? { field: err.field } : {}), ...(err.issue ? { issue: err.issue } : {}), ...(err.fact ? { fact: err.fact } : {}) };
  // The chat's and the profiles' refusals: each class has its fact or issue, which the window words.
  if (err instanceof NotConfiguredError) return { code: 'not_configured', message: err.message, fact: { kind: 'no_model' } };
  if (err instanceof ConversationBusyError) return { code: 'busy', message: err.message, fact: { kind: 'conversation_busy' } };
  if (err instanceof NotEditableError) return { code: 'conflict', message: err.message, fact: { kind: 'not_editable' } };
  if (err instanceof ConversationNotFoundError) return { code: 'not_found', message: err.message, fact: { kind: 'conversation_unknown' } };
  if (err instanceof ConversationInputError) return { code: 'invalid_input', message: err.message, field: err.field, issue: err.issue };
  if (err instanceof ExportWriteError) return { code: 'write_failed', message: bounded(err.message), fact: { kind: 'write_failed', path: clip(err.path, 1000), errno: err.errno === null ? null : clip(err.errno, 32) } };
  if (err instanceof ProfileNotFoundError) return { code: 'not_found', message: err.message, fact: { kind: 'profile_unknown' } };
  if (err instanceof DuplicateProfileNameError) return { code: 'conflict', message: err.message, field: err.field, fact: { kind: 'profile_name_taken', name: err.profileName } };
  if (err instanceof ProfileInputError) return { code: 'invalid_input', message: err.message, field: err.field, issue: err.issue };
  if (err instanceof UnknownElicitationError) return { code: 'gone', message: err.message };
  if (err instanceof ApprovalError) return { code: err.code, message: err.message };
  // The server catalog (main/mcp/catalog): messages are ours and carry no secret value.
  // Their `reason` is what the window renders (in its language); checked against the contract's schema.
  if (err instanceof RegistryError) return { code: err.kind === 'not_found' ? 'not_found' : 'registry_unavailable', message: bounded(err.message), ...checkedReason(err.problem) };
  if (err instanceof MissingRuntimeError) return { code: 'missing_runtime', message: bounded(err.message), ...checkedReason(err.reason) };
  if (err instanceof NotInstallableError) return { code: 'not_installable', message: bounded(err.message), ...checkedReason(err.reason) };
  if (err instanceof BundleError) return { code: 'bundle_invalid', message: bounded(err.message), ...checkedReason(err.problem) };
  if (err instanceof CatalogInputError) return { code: 'invalid_input', message: bounded(err.message), ...(err.field ? { field: err.field } : {}), fact: err.fact };
  // OAuth sign-in errors carry messages already scrubbed of secrets, and their facts (main/mcp/oauth/errors.ts).
  const signIn = signInFailure(err);
  if (signIn) return { code: SIGN_IN_CODES[signIn.code] ?? 'oauth_failed', message: bounded((err as Error).message), fact: { kind: 'sign_in', failure: signIn } };
  if (err instanceof z.ZodError) {
    // Paths and messages may echo input (e.g. an unknown key's name): keep them short.
    const first = err.issues[0];
    const field = clip(first?.path.map(String).join('.') ?? '', 200) || undefined;
    return {
      code: 'invalid_input',
      message: first ? clip(`${field ? `${field}: ` : ''}${first.message}`, 500) : 'Invalid input',
      ...(field ? { field } : {}),
      ...(first ? { issue: validationIssue(first) } : {}),
    };
  }
  return { code: 'internal', message: 'Internal error. See the app log for details.' };
}

/**
 * A carrier-independent dispatcher: `invoke(channel, rawInput, caller?)` → envelope. `caller.signal`
 * is the calling page's lifetime (see {@link CallerContext}).
 */
export interface Dispatcher {
  invoke(channel: unknown, input: unknown, caller?: CallerContext): Promise<Envelope<unknown>>;
}

/**
 * Create the dispatcher for a core.
 * @param onInternalError receives unexpected errors (for the app log); never sent to the renderer.
 */
export function createDispatcher(core: AppCore, onInternalError: (channel: string, err: unknown) => void = () => undefined): Dispatcher {
  const handlers = createHandlers(core) as Record<string, (input: unknown, caller: CallerContext) => unknown>;
  const r = core.redactor;
  /** The error for the app log, with stored secret values redacted from its message and stack. */
  const loggable = (err: unknown): unknown => {
    if (!(err instanceof Error)) return typeof err === 'string' ? r.redactText(err) : err;
    const message = r.redactText(err.message);
    const stack = err.stack === undefined ? undefined : r.redactText(err.stack);
    if (message === err.message && stack === err.stack) return err;
    const copy = new Error(message);
    copy.name = err.name;
    copy.stack = stack;
    return copy;
  };
  const run = async (channel: unknown, input: unknown, caller: CallerContext): Promise<Envelope<unknown>> => {
    if (typeof channel !== 'string' || !Object.prototype.hasOwnProperty.call(channels, channel)) {
      return { ok: false, error: { code: 'unknown_channel', message: 'Unknown channel.' } };
    }
    const schema = channels[channel as ChannelName].input;
    try {
      const parsed = schema.safeParse(input === undefined ? {} : input);
      if (!parsed.success) return { ok: false, error: toIpcError(parsed.error) };
      return { ok: true, value: await handlers[channel]!(parsed.data, caller) };
    } catch (err) {
      const e = toIpcError(err);
      if (e.code === 'internal') onInternalError(channel, loggable(err));
      return { ok: false, error: e };
    }
  };
  let answered = false;
  return {
    // Every reply crosses this line: stored secret values are redacted from all of it.
    invoke: async (channel, input, caller = {}) => {
      const reply = r.redactDeep(await run(channel, input, caller));
      if (!answered) {
        // The first call was answered, so the UI is up: servers may start — on a later turn,
        // after this reply has gone out (docs/ARCHITECTURE.md "Start-up and shutdown").
        answered = true;
        setImmediate(() => core.uiReady());
      }
      return reply;
    },
  };
}
