/**
 * The network bridge inside a sandbox (docs/ARCHITECTURE.md "Sandbox"): the sandbox has its own
 * empty network namespace, so a small program runs first inside it, listens on the sandbox's
 * loopback at {@link BRIDGE_PORT}, carries each connection to the host-side proxy's Unix socket
 * (bound in from the host), and then runs the server with `HTTPS_PROXY`/`HTTP_PROXY` pointing at
 * it. The program is this file's fixed source text, run by the app's own Node runtime; its only
 * inputs are the socket path and the server's argv, passed as arguments (never through a shell).
 */

/** The loopback port the bridge listens on inside the sandbox (the namespace is the server's own). */
export const BRIDGE_PORT = 18_080;

/** File name of the proxy's socket inside the bridge folder. */
export const BRIDGE_SOCKET = 'proxy.sock';

/**
 * The bridge's source, for `node -e`: argv = [port, socketPath, command, ...args]. It exits with
 * the server's exit code (or re-raises its signal), passes SIGTERM/SIGINT/SIGHUP on, and leaves
 * stdin, stdout and stderr to the server alone.
 */
export const BRIDGE_SOURCE = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [port, sock, command, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const up = net.connect(sock);
  c.pipe(up); up.pipe(c);
  const end = () => { c.destroy(); up.destroy(); };
  c.on('error', end); up.on('error', end);
});
server.on('error', (e) => { process.stderr.write('sandbox bridge: ' + e.message + '\\n'); process.exit(70); });
server.listen(Number(port), '127.0.0.1', () => {
  server.unref();
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write('sandbox bridge: ' + e.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => {
    if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); }
    else process.exit(code ?? 1);
  });
});
`;
