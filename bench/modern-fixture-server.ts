/**
 * Runs the test suite's stateless 2026-07-28 fixture (test/fixtures/modern-http-server.ts:
 * SDK v2 `createMcpHandler`, no sessions) in its own process, so the client side of a benchmark
 * does not share its event loop. Prints `URL <url>` once listening; exits when stdin closes.
 * Usage: modern-fixture-server.ts [--bench-tag=TAG]
 */
import { startModernHttpFixture } from '../test/fixtures/modern-http-server.js';

async function main(): Promise<void> {
  const fixture = await startModernHttpFixture({ legacy: 'reject' });
  process.stdout.write(`URL ${fixture.url}\n`);
  process.stdin.on('end', () => {
    void fixture.close().finally(() => process.exit(0));
  });
  process.stdin.resume();
}

main().catch((err) => {
  console.error((err as Error).stack ?? err);
  process.exit(1);
});
