/**
 * Client under test for the official MCP conformance suite (`@modelcontextprotocol/conformance`).
 *
 * CLI contract (from the suite's README): the runner starts a scenario server and runs
 * `<command> <server-url>` with `MCP_CONFORMANCE_SCENARIO=<name>` and, for scenarios that need it,
 * `MCP_CONFORMANCE_CONTEXT=<json>` (e.g. pre-registered client credentials). Exit 0 = the client
 * finished its job; the suite judges the traffic it saw.
 *
 * What runs is the app's own code: `McpConnection` for plain scenarios and for the interactive
 * `auth/*` scenarios, i.e. exactly what the host runs for a remote server whose Authorization is
 * "OAuth sign-in": a `RemoteServerConfig` with `auth.kind = 'oauth'` (plus the pre-registered
 * client when the scenario supplies one) and a `PersistentOAuthProvider` over a
 * `MemorySecretStore`, built by the app's one factory (`createOAuthProvider`); `McpConnection` then connects through
 * `createOAuthRemoteTransport` and reports `needs_auth` / `needs_reauth`. Signing in is the host's
 * flow: `OAuthSignIns.signIn({provider, serverUrl, scope})` (loopback callback, PKCE, SDK
 * `auth()`), then a fresh `McpConnection` — as `McpHost.signIn` relaunches the server. Two
 * differences from the host, both because the scenarios need them: the provider also gets the
 * suite's SEP-991 client-metadata URL (the host does not configure one), and the user's clicks
 * are the retry loop below (sign in when the connection needs it; sign in again when a call is
 * refused for scope, at most `MAX_SIGN_INS` times). "Opening the browser" = fetching the
 * authorization URL without following redirects and delivering its `Location` to our loopback
 * callback. Nothing secret is printed.
 *
 * Elicitation: every `McpConnection` here gets an `elicit` handler (the host's would open a
 * dialog) that accepts the form as shown, so the connection declares form elicitation with
 * `applyDefaults` and the SDK fills in the schema defaults (SEP-1034).
 *
 * The suite's `extension` scenarios are grants the app does not offer in its settings: client
 * credentials (the SDK's `ClientCredentialsProvider` / `PrivateKeyJwtProvider`), SEP-990
 * enterprise-managed authorization (the SDK's `CrossAppAccessProvider`), workload identity (an
 * RFC 7523 JWT-bearer grant) — these run an SDK `Client` set up like `McpConnection`'s over the
 * same `createOAuthRemoteTransport` — and DPoP, which runs the interactive path above with
 * `PersistentOAuthProvider.useDpop`.
 */
// The SDK is imported from the app's node_modules (not this folder's copy, which the suite
// brings along), so `instanceof` checks agree with the app code.
import { Client, ClientCredentialsProvider, CrossAppAccessProvider, DpopSession, PrivateKeyJwtProvider, requestJwtAuthorizationGrant } from '../node_modules/@modelcontextprotocol/client/dist/index.mjs';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthTokens, Tool } from '../node_modules/@modelcontextprotocol/client/dist/index.mjs';
import { CLIENT_INFO, McpConnection, collectPages, type ElicitHandler } from '../main/mcp/connection.js';
import type { RemoteServerConfig } from '../main/mcp/config.js';
import { MemorySecretStore } from '../main/secrets/store.js';
import { createOAuthProvider } from '../main/mcp/oauth/provider-factory.js';
import { OAuthSignIns, classifyAuthFailure } from '../main/mcp/oauth/flow.js';
import { createOAuthRemoteTransport } from '../main/mcp/oauth/transport.js';
import { InteractionRequiredError } from '../main/mcp/oauth/errors.js';

/** SEP-991 client id document URL the suite's CIMD scenario expects clients to present. */
const CIMD_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const TIMEOUT_MS = 20_000;
const MAX_SIGN_INS = 3;
/** The server's name in the app (keys of its OAuth state are `oauth:<name>:…`). */
const SERVER_NAME = 'conformance';

function log(msg: string): void {
  process.stderr.write(`[openprogram-conformance] ${msg}\n`);
}

/**
 * Arguments an agent might send: a value of the right type for every property the schema names
 * (optional ones too, as a model filling a form would — except optional flags, which are left to
 * the server's default). Strings carry a non-ASCII character and a space, so parameters mirrored
 * into `Mcp-Param-*` headers exercise the Base64 form (SEP-2243).
 */
function exampleArgs(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: string; enum?: unknown[]; default?: unknown }>; required?: string[] };
  const out: Record<string, unknown> = {};
  const names = new Set([...(schema.required ?? []), ...Object.keys(schema.properties ?? {})]);
  const required = new Set(schema.required ?? []);
  for (const name of names) {
    const p = schema.properties?.[name] ?? {};
    if (!required.has(name) && p.type === 'boolean') continue;
    if (p.default !== undefined) out[name] = p.default;
    else if (p.enum?.length) out[name] = p.enum[0];
    else if (p.type === 'number' || p.type === 'integer') out[name] = 2;
    else if (p.type === 'boolean') out[name] = true;
    else if (p.type === 'array') out[name] = [];
    else if (p.type === 'object') out[name] = {};
    else if (p.type === 'null') out[name] = null;
    else out[name] = 'conformance – Grüße';
  }
  return out;
}

/**
 * Both protocol eras: the connection probes with `server/discover` (2026-07-28) and falls back to
 * `initialize` (2025-era servers), as the app's connections do.
 */
const NEGOTIATE: McpConnection['clientOptions'] = { versionNegotiation: { mode: 'auto' } };

/** Plain scenarios: the app's McpConnection, then call every tool like the agent would. */
async function runPlain(url: string): Promise<void> {
  const config: RemoteServerConfig = { type: 'http', url, headers: {}, auth: { kind: 'none' }, enabled: true, timeout_seconds: TIMEOUT_MS / 1000 };
  const conn = new McpConnection(SERVER_NAME, config, undefined, undefined, null, { clientOptions: NEGOTIATE, elicit: acceptAsShown });
  try {
    await conn.start();
    if (conn.status !== 'ready') throw new Error(`connection is ${JSON.stringify(conn.state)}`);
    await callEveryTool(conn);
  } finally {
    await conn.close();
  }
}

/**
 * The host wires elicitation to a dialog; here the "user" submits it without changing a field,
 * and McpConnection's client (form mode, `applyDefaults`) fills in the schema defaults (SEP-1034).
 */
const acceptAsShown: ElicitHandler = async (server, form) => {
  log(`elicitation from ${server}: "${form.message}" → accept as shown`);
  return { action: 'accept', content: {} };
};

/**
 * The arguments of one call: example values from the tool's schema, except where a scenario asks
 * the client to hand something back. `json-schema-2020-12-preservation` (SEP-1613, SEP-2106) asks
 * for the `inputSchema` the connection holds for its focal tool, verbatim, as `json_schema_echo`'s
 * `schema`: it shows whether listing kept `$schema`, `$defs`, `$anchor`, `additionalProperties`,
 * `allOf`/`anyOf` and `if`/`then`/`else` as the server sent them.
 */
function argumentsFor(conn: McpConnection, tool: Tool): Record<string, unknown> {
  if (tool.name === 'json_schema_echo') {
    const focal = conn.tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (focal) return { schema: focal.inputSchema };
  }
  return exampleArgs(tool);
}

/** Call every listed tool once, like the agent would. */
async function callEveryTool(conn: McpConnection): Promise<void> {
  for (const tool of conn.tools) {
    const r = await conn.callTool(tool.name, argumentsFor(conn, tool));
    log(`called ${tool.name}: ${r.isError ? 'error result' : 'ok'}`);
  }
}

/** The headless "browser": GET the authorization URL, deliver the redirect to our loopback callback. */
async function headlessOpen(authorizationUrl: URL): Promise<void> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  await res.body?.cancel();
  const location = res.headers.get('location');
  if (res.status < 300 || res.status >= 400 || !location) {
    log(`authorization endpoint answered HTTP ${res.status} without a redirect`);
    return;
  }
  const target = new URL(location, authorizationUrl);
  const cb = await fetch(target);
  await cb.text();
}

interface Session {
  client: Client;
  close(): Promise<void>;
}

async function open(url: string, provider: OAuthClientProvider): Promise<Session> {
  const transport = createOAuthRemoteTransport({ type: 'http', url, headers: {} }, provider);
  const client = new Client(CLIENT_INFO, { capabilities: {}, ...NEGOTIATE });
  try {
    await client.connect(transport, { timeout: TIMEOUT_MS });
  } catch (err) {
    await client.close().catch(() => undefined);
    throw err;
  }
  return { client, close: () => client.close() };
}

async function useTools(session: Session): Promise<void> {
  const { client } = session;
  if (!client.getServerCapabilities()?.tools) return;
  const { items } = await collectPages(async (cursor) => {
    const r = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: TIMEOUT_MS });
    return { items: r.tools, nextCursor: r.nextCursor };
  });
  for (const tool of items) {
    const r = await client.callTool({ name: tool.name, arguments: exampleArgs(tool) }, { timeout: TIMEOUT_MS });
    log(`called ${tool.name}: ${r.isError ? 'error result' : 'ok'}`);
  }
}

/**
 * Interactive OAuth scenarios, the way the app runs an OAuth server: McpConnection (background:
 * never opens a browser) → `needs_auth` → sign in → a new McpConnection → call the tools; a call
 * refused for scope → sign in again (step-up) → a new McpConnection.
 */
async function runOAuth(url: string, scenario: string, ctx: Record<string, unknown> | null): Promise<void> {
  const clientId = ctx && typeof ctx.client_id === 'string' ? ctx.client_id : undefined;
  const clientSecret = ctx && typeof ctx.client_secret === 'string' ? ctx.client_secret : undefined;
  // What Settings → Add server → Authorization "OAuth sign-in (browser)" stores.
  const config: RemoteServerConfig = {
    type: 'http',
    url,
    headers: {},
    auth: { kind: 'oauth', ...(clientId ? { client_id: clientId } : {}), ...(clientSecret ? { client_secret: clientSecret } : {}) },
    enabled: true,
    timeout_seconds: TIMEOUT_MS / 1000,
  };
  const scope = config.auth.kind === 'oauth' ? config.auth.scope : undefined;
  // The app's one provider factory (as the host builds it), plus the suite's CIMD URL.
  const provider = createOAuthProvider(SERVER_NAME, config, {
    store: new MemorySecretStore(),
    openUrl: headlessOpen,
    clientName: CLIENT_INFO.name,
    clientMetadataUrl: CIMD_CLIENT_METADATA_URL,
    onStateChange: (_server, s) => log(`auth state: ${s}`),
  });
  if (!provider) throw new Error('the OAuth config did not produce a provider');
  // DPoP scenarios (SEP-1932, extension): the same provider, sender-constrained with a key of
  // this run (the app itself does not enable DPoP; see PersistentOAuthProvider.useDpop).
  if (scenario.startsWith('auth/dpop')) provider.useDpop(await DpopSession.create());
  const signIns = new OAuthSignIns();
  let signInsDone = 0;
  // McpHost.signIn: one sign-in per server, then the server is started again.
  const signInOnce = async () => {
    if (++signInsDone > MAX_SIGN_INS) throw new Error('giving up: the server keeps asking for a new sign-in');
    const r = await signIns.signIn({ provider, serverUrl: config.url, scope, timeoutMs: TIMEOUT_MS });
    log(`signed in (browser used: ${r.openedBrowser})`);
  };
  const needsSignIn = (err: unknown) => err instanceof InteractionRequiredError || classifyAuthFailure(err, provider) !== null;

  for (;;) {
    const conn = new McpConnection(SERVER_NAME, config, undefined, undefined, provider, { clientOptions: NEGOTIATE, elicit: acceptAsShown });
    try {
      await conn.start();
      if (conn.status === 'needs_auth') {
        log(`connect: ${conn.state.kind === 'needs_auth' ? conn.state.reason : 'needs_auth'}`);
        await signInOnce();
        continue;
      }
      if (conn.status !== 'ready') throw new Error(`connection is ${JSON.stringify(conn.state)}`);
      try {
        await callEveryTool(conn);
        return;
      } catch (err) {
        if (!needsSignIn(err)) throw err;
        log('a call needs a new sign-in (e.g. more scope)');
        await signInOnce();
      }
    } finally {
      await conn.close();
    }
  }
}

/** Machine-to-machine scenarios (SEP-1046 extension): the SDK's client-credentials providers over the app's transport. */
async function runClientCredentials(url: string, scenario: string, ctx: Record<string, unknown>): Promise<void> {
  const clientId = String(ctx.client_id);
  const provider: OAuthClientProvider = scenario.endsWith('-jwt')
    ? new PrivateKeyJwtProvider({ clientId, privateKey: String(ctx.private_key_pem), algorithm: typeof ctx.signing_algorithm === 'string' ? ctx.signing_algorithm : 'ES256' })
    : new ClientCredentialsProvider({ clientId, clientSecret: String(ctx.client_secret) });
  const session = await open(url, provider);
  try {
    await useTools(session);
  } finally {
    await session.close();
  }
}

/**
 * A non-interactive provider whose token request is a fixed grant (built from SDK pieces only:
 * the SDK's `fetchToken`/`auth()` send it and authenticate the client).
 */
class GrantProvider implements OAuthClientProvider {
  private stored: OAuthTokens | undefined;
  constructor(
    private readonly client: OAuthClientInformationMixed,
    private readonly grant: () => URLSearchParams,
  ) {}
  get redirectUrl(): undefined {
    return undefined;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: CLIENT_INFO.name, redirect_uris: [] };
  }
  clientInformation(): OAuthClientInformationMixed {
    return this.client;
  }
  tokens(): OAuthTokens | undefined {
    return this.stored;
  }
  saveTokens(t: OAuthTokens): void {
    this.stored = t;
  }
  redirectToAuthorization(): void {
    throw new Error('this grant has no browser step');
  }
  saveCodeVerifier(): void {}
  codeVerifier(): string {
    throw new Error('this grant has no PKCE verifier');
  }
  prepareTokenRequest(): URLSearchParams {
    return this.grant();
  }
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Enterprise-managed authorization (SEP-990, extension): the SDK's `CrossAppAccessProvider` —
 * RFC 8693 exchange of the IdP's ID token for an ID-JAG at the IdP (`requestJwtAuthorizationGrant`),
 * then the RFC 7523 JWT-bearer grant at the MCP server's authorization server — over the app's
 * transport.
 */
async function runEnterpriseManaged(url: string, ctx: Record<string, unknown>): Promise<void> {
  const provider = new CrossAppAccessProvider({
    clientId: String(ctx.client_id),
    clientSecret: String(ctx.client_secret),
    assertion: async (c) =>
      (
        await requestJwtAuthorizationGrant({
          tokenEndpoint: String(ctx.idp_token_endpoint),
          audience: c.authorizationServerUrl,
          resource: c.resourceUrl,
          idToken: String(ctx.idp_id_token),
          clientId: String(ctx.idp_client_id),
          ...(c.scope ? { scope: c.scope } : {}),
          fetchFn: c.fetchFn,
        })
      ).jwtAuthGrant,
  });
  const session = await open(url, provider);
  try {
    await useTools(session);
  } finally {
    await session.close();
  }
}

/**
 * Workload identity federation (SEP-1933, extension): the RFC 7523 JWT-bearer grant with the
 * workload's JWT as the assertion, sent by the SDK's `auth()` inside the app's transport. A
 * refused grant is reported, never retried with another grant type.
 */
async function runWorkloadIdentity(url: string, ctx: Record<string, unknown>): Promise<void> {
  const provider = new GrantProvider({ client_id: String(ctx.client_id) }, () => new URLSearchParams({ grant_type: JWT_BEARER, assertion: String(ctx.valid_jwt) }));
  const session = await open(url, provider);
  try {
    await useTools(session);
  } finally {
    await session.close();
  }
}

async function main(): Promise<void> {
  const url = process.argv[2];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (!url) throw new Error('usage: client.ts <server-url>');
  const ctx = process.env.MCP_CONFORMANCE_CONTEXT ? (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as Record<string, unknown>) : null;
  log(`scenario ${scenario || '(none)'}`);
  if (scenario.startsWith('auth/client-credentials-') && ctx) return runClientCredentials(url, scenario, ctx);
  if (scenario === 'auth/enterprise-managed-authorization' && ctx) return runEnterpriseManaged(url, ctx);
  if (scenario === 'auth/wif-jwt-bearer' && ctx) return runWorkloadIdentity(url, ctx);
  if (scenario.startsWith('auth/')) return runOAuth(url, scenario, ctx);
  return runPlain(url);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    const e = err as Error;
    log(`failed: ${e?.name ?? 'Error'}: ${e?.message ?? String(err)}`);
    process.exit(1);
  },
);
