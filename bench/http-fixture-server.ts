/**
 * Runs one of the test suite's HTTP MCP fixtures in its own process, so the client side of a
 * benchmark does not share its event loop: the sessionful Streamable HTTP fixture
 * (test/fixtures/http-server.ts: tools echo and sleep), or with `--modern` the stateless
 * 2026-07-28 one (test/fixtures/modern-http-server.ts, SDK v2 `createMcpHandler`, 2025-era
 * requests refused). Prints `URL <url>` once listening; exits when stdin closes. Other arguments
 * (the bench tag) are ignored. Usage: http-fixture-server.ts [--modern] [--bench-tag=TAG]
 */
import { startHttpFixture } from '../test/fixtures/http-server.js';
import { startModernHttpFixture } from '../test/fixtures/modern-http-server.js';

async function main(): Promise<void> {
  const fixture = process.argv.includes('--modern') ? await startModernHttpFixture({ legacy: 'reject' }) : await startHttpFixture();
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
