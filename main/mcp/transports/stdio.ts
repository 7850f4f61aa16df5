/**
 * The `local` transport: a stdio server run as a child process, never through a shell
 * (docs/ARCHITECTURE.md "Transports"). Its config is `command` (program and arguments, some
 * marked secret) and `env` (every value a secret); its launch resolves the program on the merged
 * environment, passes the one {@link LaunchWrapper} seam, and starts our stdio transport
 * (main/mcp/stdio.ts: process group, bounded lines; the framing is the SDK's).
 */
import { commandPartSchema } from '../../../preload/contract/index.js';
import type { LocalServerConfig, ServerConfig } from '../config.js';
import { checked, ConfigError, isSecretRef, stringMap, withSecretArgs } from '../config/entry-parts.js';
import { ownIssue } from '../../util/validation-issue.js';
import { fillPlaceholders, maskCommand, maskedPositions, PlaceholderError } from '../config/secret-args.js';
import { maskMap, SECRET_PLACEHOLDER } from '../../secrets/mask.js';
import { ManagedStdioTransport } from '../stdio.js';
import { CommandNotFoundError, mergedEnv, resolveCommand, type ServerEnvironment } from './environment.js';
import { directLaunch, type LaunchContext, type LaunchWrapper, type Launched, type StdioLaunch, type TransportKind } from './kind.js';

/** Whether a stored config is a stdio one (the other side of an import or update). */
function isLocal(cfg: ServerConfig): cfg is LocalServerConfig {
  return cfg.type === stdioTransport.type;
}

/**
 * The launch of a stdio server before the wrapper: the program resolved to an absolute path on
 * the merged environment (`env` over the inherited one, plus `extraEnv`).
 * @throws CommandNotFoundError when `command[0]` does not resolve to an executable.
 */
export function stdioLaunch(cfg: LocalServerConfig, ctx: Pick<LaunchContext, 'environment' | 'extraEnv' | 'cwd'> = {}): StdioLaunch {
  const env = { ...(ctx.environment ? ctx.environment.merged(cfg.env) : mergedEnv(cfg.env)), ...(ctx.extraEnv ?? {}) };
  const command = resolveCommand(cfg.command[0]!, env, ctx.cwd);
  if (!command) throw new CommandNotFoundError(cfg.command[0]!);
  return { command, args: cfg.command.slice(1), env, cwd: ctx.cwd };
}

/**
 * Create (not start) the stdio transport of `cfg` under `name`: {@link stdioLaunch}, then
 * `wrapper` (default: as it is), then our `ManagedStdioTransport`.
 * @throws CommandNotFoundError when the program does not resolve.
 */
export function launchStdio(name: string, cfg: LocalServerConfig, ctx: LaunchContext, wrapper: LaunchWrapper = ctx.wrapper ?? directLaunch): Launched {
  const resolved = stdioLaunch(cfg, ctx);
  const l = wrapper.wrap(resolved, { name, config: cfg });
  const transport = new ManagedStdioTransport({ command: l.command, args: l.args, env: l.env, cwd: l.cwd, onStderr: ctx.onStderr, onNoise: ctx.onNoise, onGroup: ctx.onGroup });
  return { transport, resolvedCommand: resolved.command };
}

/** The `local` (stdio) descriptor. */
export const stdioTransport: TransportKind<LocalServerConfig> = {
  type: 'local',
  aliases: ['stdio'],
  remote: false,
  legacyFallback: false,
  live: 'stdio',

  parse(raw, type, common, refs) {
    let command: string[];
    const refArgs: number[] = [];
    if (Array.isArray(raw.command)) {
      command = raw.command.map((c, i) => {
        // A secret argument in the file is a reference in place (docs/ARCHITECTURE.md "Config file").
        if (i > 0 && isSecretRef(c) && refs) {
          refs[`args:${i}`] = c.secret;
          refArgs.push(i);
          return '';
        }
        if (typeof c !== 'string') throw new ConfigError('command must be a list of strings', ownIssue('invalid_type', ['command', String(i)]));
        return c;
      });
    } else if (typeof raw.command === 'string') {
      const args = raw.args === undefined ? [] : raw.args;
      if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) throw new ConfigError('args must be a list of strings', ownIssue('invalid_type', ['args']));
      command = [raw.command, ...(args as string[])];
    } else {
      throw new ConfigError('command is required for a local server', raw.command === undefined || raw.command === null ? ownIssue('custom', ['command'], { rule: 'required' }) : ownIssue('invalid_type', ['command']));
    }
    if (command.length === 0 || !command[0]!.trim()) throw new ConfigError('command is empty', ownIssue('custom', ['command'], { rule: 'required' }));
    command.forEach((c, i) => checked(c, commandPartSchema, `command.${i}`));
    const env = stringMap(raw.env, 'env', refs);
    const marked = raw.secret_args === undefined || raw.secret_args === null ? [] : raw.secret_args;
    if (!Array.isArray(marked) || marked.some((i) => !Number.isInteger(i) || i < 1 || i >= command.length)) throw new ConfigError('secret_args must list argument positions (1 … the number of arguments)', ownIssue('invalid_value', ['secret_args']), 'secret_args');
    return withSecretArgs({ type, command, env, ...common }, [...(marked as number[]), ...refArgs]);
  },

  fromInput(input, common) {
    const cfg: LocalServerConfig = { type: input.type, command: [...input.command], env: { ...(input.env ?? {}) }, ...common };
    const marked = input.secret_args ?? [];
    const bad = marked.find((i) => i >= cfg.command.length);
    if (bad !== undefined) throw new ConfigError(`secret_args: there is no argument ${bad}`, ownIssue('too_big', ['secret_args'], { origin: 'number', maximum: cfg.command.length - 1 }), 'secret_args');
    return withSecretArgs(cfg, marked);
  },

  assertNoPlaceholders(cfg) {
    const at = cfg.command.indexOf(SECRET_PLACEHOLDER, 1);
    if (at > 0) throw new ConfigError(`Argument ${at} is "${SECRET_PLACEHOLDER}", which stands for a stored secret; enter its value.`, ownIssue('custom', ['command', String(at)], { rule: 'secret_placeholder' }), `command.${at}`);
  },

  loadShape: (cfg) => [cfg.type, cfg.command, Object.keys(cfg.env), cfg.secret_args ?? []],

  markKnownSecrets: (cfg, isKnownSecret) =>
    withSecretArgs(
      cfg,
      cfg.secret_args ?? [],
      cfg.command.filter((a, i) => i > 0 && isKnownSecret(a)),
    ),

  secrets(cfg) {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(cfg.env)) out[`env:${k}`] = v;
    for (const i of cfg.secret_args ?? []) if (i > 0 && i < cfg.command.length) out[`args:${i}`] = cfg.command[i]!;
    return out;
  },

  setSecret(cfg, p, value) {
    const i = p.indexOf(':');
    const field = p.slice(0, i);
    const name = p.slice(i + 1);
    if (field === 'env') cfg.env[name] = value;
    else if (field === 'args') {
      const at = Number(name);
      if (Number.isInteger(at) && at > 0 && at < cfg.command.length) cfg.command[at] = value;
    }
  },

  mapSecrets(cfg, replace) {
    const secretArgs = new Set(cfg.secret_args ?? []);
    const command = cfg.command.map((a, i) => (secretArgs.has(i) && i > 0 ? replace(`args:${i}`, a) : a));
    return { ...cfg, command, env: Object.fromEntries(Object.entries(cfg.env).map(([k, v]) => [k, replace(`env:${k}`, v)])) };
  },

  sameSecretDestination(next, stored) {
    if (!isLocal(stored)) return false;
    // `***` (an export's secret argument) stands for the stored argument at that place.
    try {
      const filled = fillPlaceholders(next.command, stored.command, maskedPositions(stored.command, stored.secret_args)).command;
      return stdioTransport.destination({ ...next, command: filled }) === stdioTransport.destination(stored);
    } catch (err) {
      if (err instanceof PlaceholderError) return false;
      throw err;
    }
  },

  keptSecrets(next, stored, apply) {
    const kept: string[] = [];
    if (!isLocal(stored) || !stdioTransport.sameSecretDestination(next, stored)) return kept;
    for (const [k, v] of Object.entries(next.env)) {
      if (v !== '' || !stored.env[k]) continue;
      kept.push(`env ${k}`);
      if (apply) next.env[k] = stored.env[k]!;
    }
    const { command, secret } = fillPlaceholders(next.command, stored.command, maskedPositions(stored.command, stored.secret_args));
    for (const i of secret) kept.push(`argument ${i}`);
    if (apply && secret.length) Object.assign(next, withSecretArgs({ ...next, command }, [...(next.secret_args ?? []), ...secret]));
    return kept;
  },

  namedValues: (cfg) => cfg.env,

  destination: (cfg) => `local:${JSON.stringify(cfg.command)}`,

  identity(cfg) {
    // Secret arguments (marked or detected) enter as `***`: their values never do.
    const secret = new Set(maskedPositions(cfg.command, cfg.secret_args));
    return { target: cfg.command.map((a, i) => (secret.has(i) ? SECRET_PLACEHOLDER : a)), names: Object.keys(cfg.env) };
  },

  fingerprint: (cfg) => [cfg.command, cfg.env],

  maskedTarget(cfg, isKnownSecret) {
    const positions = maskedPositions(cfg.command, cfg.secret_args, isKnownSecret);
    return { command: maskCommand(cfg.command, positions), secret_args: positions, url: null, url_secrets: {} };
  },

  maskedValues: (cfg) => ({ env: maskMap(cfg.env), headers: {} }),
  auth: () => ({ kind: 'none' }),
  url: () => null,
  failureTarget: (cfg, resolvedCommand) => ({ url: null, command: resolvedCommand ?? cfg.command[0] ?? null }),

  launch: (cfg, ctx) => launchStdio(ctx.name, cfg, ctx),

  preflight(cfg, environment: ServerEnvironment) {
    if (!resolveCommand(cfg.command[0]!, environment.merged(cfg.env))) throw new CommandNotFoundError(cfg.command[0]!);
  },

  // On stdio a silent probe means a legacy server that ignores unknown requests: the probe gets
  // half the start timeout, leaving the other half for `initialize` (main/mcp/negotiation.ts).
  probeTimeoutMs: (startTimeoutMs) => Math.max(100, Math.floor(startTimeoutMs / 2)),
};
