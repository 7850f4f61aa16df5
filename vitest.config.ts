import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Unit tests never touch the developer's real keychain (the keychain suite does, in its own session).
    env: { OPENPROGRAM_DISABLE_KEYCHAIN: '1' },
  },
});
