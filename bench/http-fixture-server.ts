/**
 * Runs the test suite's Streamable HTTP fixture (test/fixtures/http-server.ts: tools echo and
 * sleep) in its own process, so the client side of a benchmark does not share its event loop.
 * Prints `URL <url>` once listening; exits when stdin closes. Extra arguments (the bench tag) are
 * ignored. Usage: http-fixture-server.ts [--bench-tag=TAG]
 */
import { startHttpFixture } from '../test/fixtures/http-server.js';

async function main(): Promise<void> {
  const fixture = await startHttpFixture();
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
