/**
 * Servers do not inherit the app's own variables (docs/ARCHITECTURE.md "Config file", "Security"):
 * npm_*, OPENPROGRAM_* and ELECTRON_* stay behind; the rest of the user's environment still passes,
 * and a server's own env may set any name. Checked on the pure merge and in a real server process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpConnection } from '../../../main/mcp/connection.js';
import { isAppVariable, mergedEnv } from '../../../main/mcp/transports/environment.js';
import { localServer, sdkCommand, sha256 } from '../helpers.js';

describe('mergedEnv', () => {
  it('drops the app variables, keeps the rest, lets the server env set anything', () => {
    const env = mergedEnv(
      { OPENPROGRAM_MODE: 'explicit', B: 'server' },
      { PATH: '/bin', HOME: '/home/u', npm_config_registry: 'x', NPM_TOKEN_X: 'y', OPENPROGRAM_STATE_DIR: '/s', openprogram_port: '1', ELECTRON_RUN_AS_NODE: '1', Electron_Extra: '1', B: 'parent', NODE_OPTIONS: '--x' },
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/u', NODE_OPTIONS: '--x', B: 'server', OPENPROGRAM_MODE: 'explicit' });
  });

  it.each([['npm_lifecycle_event', true], ['OPENPROGRAM_DISABLE_KEYCHAIN', true], ['ELECTRON_RUN_AS_NODE', true], ['NPM_CONFIG_X', true], ['NPMRC', false], ['ELECTRONIC', false], ['MY_OPENPROGRAM', false]])('%s → %s', (name, app) => {
    expect(isAppVariable(name)).toBe(app);
  });
});

describe('a real server process', () => {
  const set = { OPENPROGRAM_SECRET_PROBE: 'app-only-1', npm_config_probe: 'app-only-2', ELECTRON_RUN_AS_NODE: '1', USER_PROBE_VAR: 'users-own' };
  beforeAll(() => Object.assign(process.env, set));
  afterAll(() => {
    for (const k of Object.keys(set)) delete process.env[k];
  });

  it('sees the user variables but not the app ones', async () => {
    const c = new McpConnection('envcheck', localServer(sdkCommand()));
    try {
      await c.start();
      expect(c.status).toBe('ready');
      const check = async (name: string, value: string): Promise<string> => {
        const r = await c.callTool('env_check', { name, sha256: sha256(value) });
        return (r.content as Array<{ text: string }>)[0]!.text;
      };
      expect(await check('USER_PROBE_VAR', 'users-own')).toBe('match');
      expect(await check('OPENPROGRAM_SECRET_PROBE', 'app-only-1')).toBe('unset');
      expect(await check('npm_config_probe', 'app-only-2')).toBe('unset');
      expect(await check('ELECTRON_RUN_AS_NODE', '1')).toBe('unset');
    } finally {
      await c.close();
    }
  }, 20_000);
});
