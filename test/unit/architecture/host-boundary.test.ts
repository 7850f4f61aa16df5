/**
 * A server's connection stays inside the host (docs/ARCHITECTURE.md "Status"): outside
 * main/mcp/host*, main/mcp/connection* and the host's own helpers, main reaches a server only
 * through `McpHost.ready()` (main/mcp/host/ready-server.ts) and never calls `connection()`, which
 * is for tests and benchmarks. A scan of main's sources that fails when a caller reaches around.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** Files that build or hold connections (the host's room) and the helpers it calls with one. */
const INSIDE = [/^main\/mcp\/host(\.ts|\/)/, /^main\/mcp\/connection(\.ts|\/)/, /^main\/mcp\/protocol\/view\.ts$/, /^main\/mcp\/failures\.ts$/];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

/** Places outside the host that call `.connection(` or import the connection class. */
function reachesAround(root: string): string[] {
  const bad: string[] = [];
  for (const file of sources(path.join(root, 'main'))) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    if (INSIDE.some((re) => re.test(rel))) continue;
    const text = readFileSync(file, 'utf8');
    text.split('\n').forEach((line, i) => {
      if (/\.connection\(/.test(line) || /\bMcpConnection\b/.test(line)) bad.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  return bad;
}

describe('the connection stays inside the host', () => {
  it('no part of main outside the host calls connection() or names McpConnection', () => {
    expect(reachesAround(ROOT)).toEqual([]);
  });
});
