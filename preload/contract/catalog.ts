/**
 * The contract of the server catalog (the MCP Registry, `.mcpb` bundles, the catalog diff;
 * docs/ARCHITECTURE.md "Server catalog"): entries and install options, the reasons by code why
 * something cannot be installed or the registry cannot be used, and the catalog channels.
 */
import { z } from 'zod';
import { LIMITS, serverNameSchema } from './limits.js';
import { isLoopbackHost } from './rules/index.js';
import type { DeclaredSandboxNeeds } from './sandbox.js';
import type { ServerView } from './server-view.js';

/** One value an install asks for (a registry `Input`: argument, variable, env var or header). */
export interface CatalogField {
  /** Stable id within its option, e.g. `env:API_KEY`, `header:X-Key`, `arg:package:0`, `url:tenant`. */
  id: string;
  kind: 'argument' | 'env' | 'header' | 'variable' | 'url_variable' | 'user_config';
  /** What to call it: the env/header name, the flag, the value hint or the variable name. */
  label: string;
  description: string | null;
  required: boolean;
  /** Goes to the secret store (never into mcp_servers.json, never shown again). */
  secret: boolean;
  format: 'string' | 'number' | 'boolean' | 'filepath';
  default: string | null;
  placeholder: string | null;
  /** The value must be one of these. */
  choices: string[] | null;
  /** Takes several values (each becomes its own argument). */
  repeated: boolean;
}

/** The runtimes the catalog knows how to advise on (a bundle's `python3` is reported as `python`). */
export const catalogRuntimes = ['npx', 'uvx', 'docker', 'node', 'python', 'uv'] as const;

/**
 * The most characters of a registry- or manifest-supplied string (a name, a status message, a
 * URL) that a {@link NotInstallableReason} carries; main cuts longer ones (ending them with `…`).
 */
export const REASON_TEXT_MAX = 200;
const reasonText = z.string().max(REASON_TEXT_MAX + 1);
const configType = z.enum(['local', 'http', 'sse']);

/**
 * Why something from the catalog cannot be installed or updated, by code, with the variable parts
 * as fields (docs/ARCHITECTURE.md "Server catalog"). Main makes these (main/mcp/catalog/reasons.ts);
 * the window renders `catalog.why.<code>` in its language. String fields are data from the
 * registry, a manifest or the request — text only, at most {@link REASON_TEXT_MAX} characters.
 *
 * Option refusals (`CatalogOption.reason`): `bundle_no_sha256`, `bundle_url_invalid`,
 * `bundle_not_https`, `bundle_not_stdio`, `package_type_unsupported`, `package_not_stdio`,
 * `package_registry_unsupported`, `package_name_invalid`, `version_inexact`, `no_version`,
 * `secret_argument`, `env_name_invalid`, `secret_url_variable`, `header_name_invalid`,
 * `runtime_env_refused` (an environment variable the runtime reads as its configuration, with a
 * value the entry fixes), `runtime_argument_refused` (a runtime argument npx/uvx/docker would
 * read as another package source, another package, or wider access; `argument` as written),
 * `package_argument_refused` (a fixed package-source flag among the package's arguments).
 * Install/update refusals (`not_installable` errors, `CatalogDiffItem` `blocked`): the above and
 * `no_such_option`, `bundle_download_first`, `server_json_invalid`, `new_version_invalid`,
 * `entry_removed` (with the registry's status message, if any), `not_a_bundle`, `no_server`,
 * `option_gone`, `bundle_update_unsupported`, `not_from_catalog`, `already_latest`,
 * `type_change`, `answer_invalid` (a kept answer no longer fits; `field` is its label).
 * Missing programs (`missing_runtime` errors): `runtime_missing` (one of {@link catalogRuntimes}),
 * `program_missing` (any other command, e.g. a bundle's).
 */
export const notInstallableReasonSchema = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('bundle_no_sha256') }),
  z.strictObject({ code: z.literal('bundle_url_invalid') }),
  z.strictObject({ code: z.literal('bundle_not_https') }),
  z.strictObject({ code: z.literal('bundle_not_stdio'), transport: reasonText }),
  z.strictObject({ code: z.literal('package_type_unsupported'), registry_type: reasonText }),
  z.strictObject({ code: z.literal('package_not_stdio'), transport: reasonText }),
  z.strictObject({ code: z.literal('package_registry_unsupported'), registry_type: reasonText, registry_url: reasonText }),
  z.strictObject({ code: z.literal('package_name_invalid'), registry_type: reasonText, identifier: reasonText }),
  z.strictObject({ code: z.literal('version_inexact'), version: reasonText }),
  z.strictObject({ code: z.literal('no_version') }),
  z.strictObject({ code: z.literal('secret_argument'), label: reasonText }),
  z.strictObject({ code: z.literal('env_name_invalid'), name: reasonText }),
  z.strictObject({ code: z.literal('secret_url_variable'), name: reasonText }),
  z.strictObject({ code: z.literal('header_name_invalid'), name: reasonText }),
  z.strictObject({ code: z.literal('runtime_env_refused'), name: reasonText }),
  z.strictObject({ code: z.literal('runtime_argument_refused'), runtime: z.enum(['npx', 'uvx', 'docker']), argument: reasonText }),
  z.strictObject({ code: z.literal('package_argument_refused'), argument: reasonText }),
  z.strictObject({ code: z.literal('no_such_option'), option: reasonText }),
  z.strictObject({ code: z.literal('bundle_download_first') }),
  z.strictObject({ code: z.literal('server_json_invalid') }),
  z.strictObject({ code: z.literal('new_version_invalid') }),
  z.strictObject({ code: z.literal('entry_removed'), name: reasonText, message: reasonText.optional() }),
  z.strictObject({ code: z.literal('not_a_bundle') }),
  z.strictObject({ code: z.literal('no_server'), server: reasonText }),
  z.strictObject({ code: z.literal('option_gone') }),
  z.strictObject({ code: z.literal('bundle_update_unsupported') }),
  z.strictObject({ code: z.literal('not_from_catalog'), server: reasonText }),
  z.strictObject({ code: z.literal('already_latest'), server: reasonText, version: reasonText }),
  z.strictObject({ code: z.literal('type_change'), before: configType, after: configType }),
  z.strictObject({ code: z.literal('answer_invalid'), field: reasonText }),
  z.strictObject({ code: z.literal('runtime_missing'), runtime: z.enum(catalogRuntimes) }),
  z.strictObject({ code: z.literal('program_missing'), program: reasonText }),
]);
/** See {@link notInstallableReasonSchema}. */
export type NotInstallableReason = z.infer<typeof notInstallableReasonSchema>;

/**
 * Why the registry, or a bundle's download address, could not be used — by code, with the
 * variable parts as fields (docs/ARCHITECTURE.md "Server catalog"). Main makes these
 * (main/mcp/catalog/registry.ts, bundle-installer.ts, service.ts); the window renders
 * `catalog.why.<code>` in its language with what the user can do about it. `host` is the
 * registry's (or download's) host:port; `error` is the system error code (`ENOTFOUND`,
 * `ECONNREFUSED`, `ECONNRESET`, …), `timeout` when no answer came in time, or a short text when
 * there was no code.
 *
 * Registry: `registry_unreachable`, `registry_http_status`, `registry_not_json`,
 * `registry_too_large` (`mib`: the limit), `registry_not_a_list`, `registry_not_an_entry`,
 * `registry_wrong_entry`, `registry_paging_loops`, `registry_paging_empty` (`pages` read),
 * `registry_not_found` (no such server or version), `registry_unlisted` (an installed server the
 * registry no longer lists; update check). Bundle download: `bundle_unreachable`,
 * `bundle_http_status`, `bundle_too_large` (`mb`: the limit), `bundle_sha256_mismatch`.
 */
export const catalogProblemSchema = z.discriminatedUnion('code', [
  z.strictObject({ code: z.literal('registry_unreachable'), host: reasonText, error: reasonText }),
  z.strictObject({ code: z.literal('registry_http_status'), host: reasonText, status: z.number().int().min(100).max(999) }),
  z.strictObject({ code: z.literal('registry_not_json'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_too_large'), host: reasonText, mib: z.number().positive() }),
  z.strictObject({ code: z.literal('registry_not_a_list'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_not_an_entry'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_wrong_entry'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_paging_loops'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_paging_empty'), host: reasonText, pages: z.number().int().positive() }),
  z.strictObject({ code: z.literal('registry_not_found'), host: reasonText }),
  z.strictObject({ code: z.literal('registry_unlisted'), name: reasonText }),
  z.strictObject({ code: z.literal('bundle_unreachable'), host: reasonText, error: reasonText }),
  z.strictObject({ code: z.literal('bundle_http_status'), host: reasonText, status: z.number().int().min(100).max(999) }),
  z.strictObject({ code: z.literal('bundle_too_large'), mb: z.number().int().positive() }),
  z.strictObject({ code: z.literal('bundle_sha256_mismatch') }),
]);
/** See {@link catalogProblemSchema}. */
export type CatalogProblem = z.infer<typeof catalogProblemSchema>;

/** Any structured catalog reason the window renders by code: a refusal or a registry/download problem. */
export const catalogReasonSchema = z.union([notInstallableReasonSchema, catalogProblemSchema]);
/** See {@link catalogReasonSchema}. */
export type CatalogReason = NotInstallableReason | CatalogProblem;

/**
 * A value a registry entry or a bundle sets without asking (docs/ARCHITECTURE.md "Server
 * catalog"): the install form lists every one before its Install button.
 */
export interface CatalogFixedValue {
  /**
   * `runtime_argument`: read by npx/uvx/docker (before the package); `package_argument`: passed
   * to the package or the bundle's program; `env`: an environment variable; `header`: an HTTP header.
   */
  kind: 'runtime_argument' | 'package_argument' | 'env' | 'header';
  /** The flag, variable or header name; null for a positional argument. */
  name: string | null;
  /**
   * The value as the entry writes it — `{name}` (registry) or `${…}` (bundle) parts are filled in
   * from the answers at install; null for a flag without a value.
   */
  value: string | null;
}

/** A way to install an entry: one of its packages or remotes. */
export type CatalogOption =
  | {
      id: string;
      kind: string;
      label: string;
      transport: 'stdio' | 'streamable-http' | 'sse';
      installable: true;
      /** The program the server runs with (`npx`, `uvx`, `docker`), or null for a remote. */
      runtime: string | null;
      fields: CatalogField[];
      /** Every argument, variable and header the entry fixes, in the order they are used. */
      fixed: CatalogFixedValue[];
      /** What the entry declares it needs from the sandbox (local packages; `none` for remotes and bundles, whose manifest says it). */
      sandbox_needs: DeclaredSandboxNeeds;
    }
  | { id: string; kind: string; label: string; transport: 'stdio' | 'streamable-http' | 'sse'; installable: false; reason: NotInstallableReason };

/** A registry entry as the Catalog screen shows it. */
export interface CatalogEntryView {
  name: string;
  version: string;
  title: string | null;
  description: string;
  /** The entry's icon URL (https, or http on loopback; fetch it with `catalog.icon`), or null. */
  icon: string | null;
  repository: string | null;
  website: string | null;
  status: 'active' | 'deprecated' | 'deleted';
  status_message: string | null;
  updated_at: string | null;
  /** Transports offered, e.g. `npm`, `pypi`, `oci`, `streamable-http`. */
  transports: string[];
  /**
   * Whether its server.json validated; when not, why it cannot be installed: a reason code the UI
   * translates (`server_json_invalid`: the registry's description is incomplete or invalid), the
   * path of the first bad field as segments (numbers are 0-based array indexes; [] for the whole
   * document), and the validator's English detail for a "Details" fold.
   */
  state: { kind: 'valid'; options: CatalogOption[] } | { kind: 'invalid'; reason: 'server_json_invalid'; path: (string | number)[]; detail: string };
  /** Servers installed from this entry (any version). */
  installed_as: string[];
}

/** A page of the catalog: live from the registry, or from the disk cache when it could not be reached. */
export interface CatalogPage {
  registry_url: string;
  /** Where the entries come from; when not live, why the registry could not be used (rendered by code). */
  source: { kind: 'registry' } | { kind: 'cache'; reason: CatalogProblem } | { kind: 'none'; reason: CatalogProblem };
  /** When the shown data was fetched (ms since the epoch), or null with nothing to show. */
  fetched_at: number | null;
  entries: CatalogEntryView[];
  next_cursor: string | null;
  /** Entries the registry sent that had no usable name (not shown). */
  skipped: number;
}

/** What an update would change (never a secret value). */
export type CatalogChange =
  | { kind: 'type'; before: string; after: string }
  | { kind: 'command'; before: string; after: string }
  | { kind: 'url'; before: string; after: string }
  | { kind: 'env'; added: string[]; removed: string[] }
  | { kind: 'headers'; added: string[]; removed: string[] }
  /** The new version declares sandbox needs the server does not have yet; the update adds them. */
  | { kind: 'sandbox'; read: string[]; write: string[]; hosts: string[] };

/** One installed catalog server compared with its registry entry. */
export interface CatalogDiffItem {
  server: string;
  registry_name: string;
  installed_version: string;
  status: 'active' | 'deprecated' | 'deleted' | 'unknown';
  /** The registry's own note on the entry's status (its text, shown as data), or null. */
  status_message: string | null;
  /**
   * Why the status could not be checked (`unknown`: the registry could not be used) or why it is
   * `deleted` without an entry (`registry_unlisted`); rendered by code. Null otherwise.
   */
  problem: CatalogProblem | null;
  update:
    | { kind: 'none' }
    | { kind: 'available'; version: string; changes: CatalogChange[]; needs: CatalogField[] }
    | { kind: 'blocked'; version: string; reason: NotInstallableReason };
}

/** A bundle looked at before install: its manifest's name, version, and what it asks for. */
export interface BundlePreview {
  token: string;
  name: string;
  display_name: string | null;
  version: string;
  description: string;
  runtime: string;
  fields: CatalogField[];
  /** The arguments and environment variables the manifest sets for this platform (`${…}` filled at install). */
  fixed: CatalogFixedValue[];
  /** What the manifest declares it needs from the sandbox (`_meta["dev.openprogram/sandbox"]`). */
  sandbox_needs: DeclaredSandboxNeeds;
}

const catalogValuesSchema = z
  .record(z.string().max(256), z.union([z.string().max(LIMITS.secretValue), z.array(z.string().max(LIMITS.shortText)).max(64)]))
  .refine((m) => Object.keys(m).length <= 512, 'Too many values');
/** A registry server name (`namespace/name`). */
export const registryNameSchema = z.string().min(3).max(200).regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'Not a registry server name');
/** Whether `u` is https, or http without credentials to a loopback host (rules/loopback.ts). */
function isRegistryUrl(u: string): boolean {
  try {
    const p = new URL(u);
    return p.protocol === 'https:' || (p.protocol === 'http:' && !p.username && !p.password && isLoopbackHost(p.hostname));
  } catch {
    return false;
  }
}
/** The registry's base URL: https, or http to a loopback address. */
export const registryUrlSchema = z
  .string()
  .max(2048)
  .url()
  .refine(isRegistryUrl, { message: 'The registry URL must use https (or http to this computer)', params: { rule: 'https_or_loopback' } });

const empty = z.strictObject({});

/** The catalog channels (spread into `channels`, channels.ts). */
export const catalogChannels = {
  'catalog.getSettings': { input: empty },
  'catalog.setSettings': { input: z.strictObject({ registry_url: registryUrlSchema }) },
  /** Search the registry (empty query: browse). Falls back to the disk cache when it cannot be reached. */
  'catalog.search': { input: z.strictObject({ query: z.string().max(200), cursor: z.string().max(2048).optional(), include_deprecated: z.boolean().optional() }) },
  /** A registry icon that a catalog answer named, fetched by main: a `data:` URL, or null. */
  'catalog.icon': { input: z.strictObject({ url: z.string().min(1).max(2048) }) },
  /** Install one option of a registry entry as a server; `values` answer its fields (secrets go to the store). */
  'catalog.install': { input: z.strictObject({ name: registryNameSchema, version: z.string().min(1).max(255), option: z.string().min(1).max(64), server_name: serverNameSchema, values: catalogValuesSchema }) },
  /** Installed catalog servers against their registry entries. */
  'catalog.diff': { input: empty },
  /** Update an installed catalog server to its entry's latest version, keeping secrets whose names are unchanged. */
  'catalog.update': { input: z.strictObject({ server_name: serverNameSchema, values: catalogValuesSchema.optional() }) },
  /** Look at a `.mcpb` bundle (base64 of the file, ≤ 64 MB) before installing it. */
  'catalog.bundleInspect': { input: z.strictObject({ data_base64: z.string().min(1).max(90_000_000) }) },
  /** Download the bundle of an entry's `mcpb` package, check its SHA-256 and contents, and look at it like a file. */
  'catalog.fetchBundle': { input: z.strictObject({ name: registryNameSchema, version: z.string().min(1).max(255), option: z.string().min(1).max(64) }) },
  /** Install an inspected bundle under `server_name` with its `user_config` answers. */
  'catalog.bundleInstall': { input: z.strictObject({ token: z.string().min(1).max(128), server_name: serverNameSchema, values: catalogValuesSchema }) },
} as const;

/** What each of {@link catalogChannels} returns (part of `ChannelOutputs`, channels.ts). */
export interface CatalogChannelOutputs {
  'catalog.getSettings': { registry_url: string };
  'catalog.setSettings': { registry_url: string };
  'catalog.search': CatalogPage;
  'catalog.icon': { data_url: string | null };
  'catalog.install': ServerView;
  'catalog.diff': CatalogDiffItem[];
  'catalog.update': ServerView;
  'catalog.bundleInspect': BundlePreview;
  'catalog.fetchBundle': BundlePreview;
  'catalog.bundleInstall': ServerView;
}
