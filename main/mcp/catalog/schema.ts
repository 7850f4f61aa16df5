/**
 * The server catalog's one job here: the shapes the MCP Registry serves, as zod schemas
 * (docs/ARCHITECTURE.md "Server catalog"). They follow the registry's OpenAPI description
 * (`ServerList`, `ServerResponse`, `ServerDetail` = `server.json`, API v0.1): every entry is
 * `{server: server.json, _meta: {"io.modelcontextprotocol.registry/official": {status, …}}}`.
 *
 * Unknown fields are allowed (the format grows); every field we read is typed and bounded, so a
 * registry answer that passes these schemas can be mapped without further checks.
 */
import { z } from 'zod';

const text = (max: number) => z.string().max(max);

/** `Input`: one value the user may be asked for (argument, variable, env var, header). */
export const inputSchema = z.object({
  description: text(2000).optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  value: text(4096).optional(),
  isSecret: z.boolean().optional(),
  default: text(4096).optional(),
  placeholder: text(1000).optional(),
  choices: z.array(text(1000)).max(256).optional(),
});
export type RegistryInput = z.infer<typeof inputSchema>;

/** Names of `{variables}` in a template: identifiers only. */
const variableNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'variable names must be identifiers');

/** `InputWithVariables`: an input whose `value` may hold `{name}` placeholders. */
export const inputWithVariablesSchema = inputSchema.extend({
  variables: z.record(variableNameSchema, inputSchema).optional(),
});

/** `PositionalArgument` / `NamedArgument` (one schema, told apart by `type`). */
export const argumentSchema = z.discriminatedUnion('type', [
  inputWithVariablesSchema.extend({
    type: z.literal('positional'),
    valueHint: text(200).optional(),
    isRepeated: z.boolean().optional(),
  }),
  inputWithVariablesSchema.extend({
    type: z.literal('named'),
    name: text(200).min(1),
    isRepeated: z.boolean().optional(),
  }),
]);
export type RegistryArgument = z.infer<typeof argumentSchema>;

/** `KeyValueInput`: an environment variable or an HTTP header. */
export const keyValueInputSchema = inputWithVariablesSchema.extend({ name: text(256).min(1) });
export type KeyValueInput = z.infer<typeof keyValueInputSchema>;

const urlTemplateSchema = text(2048).regex(/^(https?:\/\/\S+|\{[A-Za-z_][A-Za-z0-9_]*\}\S*)$/, 'the URL must start with http://, https:// or a {variable}');

/** A package's transport (`LocalTransport`). */
export const localTransportSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('stdio') }),
  z.object({ type: z.literal('streamable-http'), url: urlTemplateSchema, headers: z.array(keyValueInputSchema).max(64).optional() }),
  z.object({ type: z.literal('sse'), url: urlTemplateSchema, headers: z.array(keyValueInputSchema).max(64).optional() }),
]);

/** `Package`: how to fetch and run the server locally. */
export const packageSchema = z.object({
  registryType: text(64).min(1),
  registryBaseUrl: text(2048).optional(),
  identifier: text(1024).min(1),
  version: text(255).optional(),
  fileSha256: z.string().regex(/^[a-f0-9]{64}$/, 'fileSha256 must be 64 lowercase hex digits').optional(),
  runtimeHint: text(64).optional(),
  transport: localTransportSchema,
  runtimeArguments: z.array(argumentSchema).max(128).optional(),
  packageArguments: z.array(argumentSchema).max(128).optional(),
  environmentVariables: z.array(keyValueInputSchema).max(128).optional(),
});
export type RegistryPackage = z.infer<typeof packageSchema>;

/** `RemoteTransport`: a hosted server (URL template with its own variables, headers). */
export const remoteSchema = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: urlTemplateSchema,
  headers: z.array(keyValueInputSchema).max(64).optional(),
  variables: z.record(variableNameSchema, inputSchema).optional(),
});
export type RegistryRemote = z.infer<typeof remoteSchema>;

/** `Icon`. */
export const iconSchema = z.object({
  src: text(2048),
  mimeType: text(64).optional(),
  sizes: z.array(text(32)).max(16).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});

/** `ServerDetail`: one `server.json` document. */
export const serverJsonSchema = z.object({
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'name must be reverse-DNS "namespace/name"'),
  description: text(1000),
  title: text(200).optional(),
  version: text(255).min(1),
  repository: z.object({ url: text(2048), source: text(64).optional(), subfolder: text(1024).optional(), id: text(256).optional() }).optional(),
  websiteUrl: text(2048).optional(),
  icons: z.array(iconSchema).max(16).optional(),
  packages: z.array(packageSchema).max(32).optional(),
  remotes: z.array(remoteSchema).max(32).optional(),
  /** Publisher and registry metadata by reverse-DNS key; read by its readers (e.g. declared sandbox needs), never checked as a whole. */
  _meta: z.unknown().optional(),
});
export type ServerJson = z.infer<typeof serverJsonSchema>;

/** Lifecycle status of a registry entry. */
export const entryStatusSchema = z.enum(['active', 'deprecated', 'deleted']);
export type EntryStatus = z.infer<typeof entryStatusSchema>;

/** The key of the registry-managed block in an entry's `_meta`. */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/** Registry-managed metadata (`_meta["io.modelcontextprotocol.registry/official"]`). */
export const officialMetaSchema = z.object({
  status: entryStatusSchema.optional(),
  statusMessage: text(1000).optional(),
  publishedAt: text(64).optional(),
  updatedAt: text(64).optional(),
  isLatest: z.boolean().optional(),
});
export type OfficialMeta = z.infer<typeof officialMetaSchema>;

/**
 * One entry of a list as it arrives: the `server` part is checked separately
 * ({@link serverJsonSchema}), so one invalid `server.json` does not hide the rest of a page.
 */
export const rawEntrySchema = z.object({
  server: z.unknown(),
  _meta: z.object({ [OFFICIAL_META]: officialMetaSchema.optional() }).optional(),
});

/** `ServerList`: a page of entries and the cursor of the next one. */
export const serverListSchema = z.object({
  servers: z.array(rawEntrySchema).max(1000),
  metadata: z.object({ nextCursor: text(2048).nullable().optional(), count: z.number().optional() }).optional(),
});
