/**
 * The `local` (stdio) transport in the window: a command line (split like a shell would, never
 * run by one), its secret arguments, and environment variables (docs/ARCHITECTURE.md "Transports").
 */
import type { ServerPatch } from '../../../preload/contract/index.js';
import { CommandLineError, joinCommandLine, splitCommandLine } from '../commandLine';
import { t, useTranslation } from '../i18n';
import { SecretArgs, storedSecretPositions } from '../components/SecretParts';
import type { TransportUi, ValueRowsUi } from './kind';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `secret_args` of an input: the marked positions still inside `argv` (none → no key). */
function secretArgsOf(marked: number[], argv: string[]): { secret_args?: number[] } {
  const inside = [...new Set(marked)].filter((i) => i >= 1 && i < argv.length).sort((a, b) => a - b);
  return inside.length ? { secret_args: inside } : {};
}

/** The command line as argv. @throws Error with a user-facing message (unterminated quote). */
function argvOf(line: string): string[] {
  try {
    return splitCommandLine(line);
  } catch (err) {
    throw err instanceof CommandLineError ? new Error(t(err.quote === 'single' ? 'addServer.errUnterminatedSingle' : 'addServer.errUnterminatedDouble')) : err;
  }
}

const envRows: ValueRowsUi = {
  field: 'env',
  nameRule: ENV_NAME,
  placeholder: () => t('addServer.varNamePlaceholder'),
  title: () => t('addServer.envVars'),
  editTitle: () => t('editServer.envSecrets'),
  cardTitle: () => t('servers.env'),
  addLabel: () => t('addServer.addVariable'),
  nameLabel: (n) => t('addServer.varName', { n }),
  valueLabel: (n) => t('addServer.varValue', { n }),
  newNameLabel: (n) => t('editServer.newVarName', { n }),
  newValueLabel: (n) => t('editServer.newVarValue', { n }),
  badNames: (names) => t('addServer.errVarNames', { names }),
  badName: (name) => t('editServer.errVarName', { name }),
};

/** The `local` transport's window parts. */
export const stdioUi: TransportUi = {
  type: 'local',
  option: () => t('addServer.typeLocal'),
  badge: 'stdio',
  target: (server) => joinCommandLine(server.command),
  values: envRows,
  stored: (server) => server.env,

  AddTarget({ draft, set, errors }) {
    const { t } = useTranslation();
    return (
      <>
        <label className="field">
          <span>{t('addServer.command')}</span>
          <input
            aria-label={t('addServer.commandLabel')}
            className="mono"
            value={draft.command}
            onChange={(e) => set({ command: e.target.value })}
            placeholder={t('addServer.commandPlaceholder')}
            aria-invalid={!!errors.command}
          />
          <span className="hint">{t('addServer.commandHint')}</span>
          {errors.command && <span className="field-error" role="alert">{errors.command}</span>}
        </label>
        <SecretArgs line={draft.command} marked={draft.secretArgs} onChange={(secretArgs) => set({ secretArgs })} />
      </>
    );
  },

  checkTarget(draft) {
    try {
      return argvOf(draft.command).length === 0 ? { command: t('addServer.errCommandRequired') } : {};
    } catch (err) {
      return { command: (err as Error).message };
    }
  },

  input(draft, values, timeout_seconds) {
    const argv = argvOf(draft.command);
    return { type: 'local', command: argv, env: values, ...secretArgsOf(draft.secretArgs, argv), timeout_seconds };
  },

  EditTarget({ draft, set }) {
    const { t } = useTranslation();
    return (
      <>
        <label className="field">
          <span>{t('addServer.command')}</span>
          <input aria-label={t('editServer.commandLabel')} className="mono" value={draft.command} onChange={(e) => set({ command: e.target.value })} />
        </label>
        <SecretArgs line={draft.command} marked={draft.marked} onChange={(marked) => set({ marked })} />
      </>
    );
  },

  EditAuth: () => null,

  targetPatch(server, draft) {
    const patch: ServerPatch = {};
    if (draft.command !== draft.initialCommand) {
      const argv = argvOf(draft.command);
      if (argv.length === 0) throw new Error(t('addServer.errCommandRequired'));
      patch.command = argv;
    }
    // New marks (a `***` argument is a stored secret already and stays one).
    const stored = new Set(storedSecretPositions(draft.command));
    const n = (patch.command ?? server.command).length;
    const fresh = [...new Set(draft.marked)].filter((i) => i >= 1 && i < n && !stored.has(i)).sort((a, b) => a - b);
    if (fresh.length) patch.secret_args = fresh;
    return patch;
  },

  authPatch: () => ({}),
};
