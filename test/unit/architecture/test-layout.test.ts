/**
 * The tests' layout (docs/ARCHITECTURE.md "Tests"): test/unit is arranged in rooms like main/, so no
 * unit test sits directly in test/unit, and no two test files anywhere under test/ share a file
 * name (a name then says which test is meant, in a report or a command line).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const TEST_FILE = /\.(test|spec)\.[mc]?[jt]sx?$/;

/** Repo-relative paths (with `/`) of every test file under `dir` (itself repo-relative). */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...testFiles(rel));
    else if (TEST_FILE.test(e.name)) out.push(rel);
  }
  return out;
}

/** What is wrong with a list of repo-relative test file paths: one line per problem, [] when none. */
function layoutProblems(files: string[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, string[]>();
  for (const f of files) {
    if (path.posix.dirname(f) === 'test/unit') problems.push(`${f} sits in test/unit itself; put it in its room (a folder like main/'s)`);
    const name = path.posix.basename(f);
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  for (const [name, paths] of byName) if (paths.length > 1) problems.push(`${name} is the name of ${paths.length} test files: ${paths.join(', ')}`);
  return problems;
}

describe('layout rules, on planted lists', () => {
  it('finds a test in test/unit itself and a name used twice', () => {
    expect(layoutProblems(['test/unit/a.test.ts'])).toEqual(["test/unit/a.test.ts sits in test/unit itself; put it in its room (a folder like main/'s)"]);
    expect(layoutProblems(['test/unit/mcp/gaps.test.ts', 'test/unit/chat/gaps.test.ts'])).toEqual(['gaps.test.ts is the name of 2 test files: test/unit/mcp/gaps.test.ts, test/unit/chat/gaps.test.ts']);
    expect(layoutProblems(['test/unit/mcp/apps.test.ts', 'test/e2e/apps.spec.ts', 'test/keychain/vault.test.ts'])).toEqual([]);
  });
});

describe('the repo', () => {
  it('every test file under test/ has a name of its own, and test/unit holds rooms only', () => {
    const files = testFiles('test');
    expect(files.length).toBeGreaterThan(100);
    expect(layoutProblems(files)).toEqual([]);
  });
});
