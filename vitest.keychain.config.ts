// Tests against a real OS keychain (Secret Service). Run through `npm run test:keychain`, which
// wraps vitest in scripts/with-keyring.sh (private D-Bus session + unlocked GNOME Keyring).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/keychain/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One keyring daemon per run: keep files sequential so they do not race on it.
    fileParallelism: false,
  },
});
