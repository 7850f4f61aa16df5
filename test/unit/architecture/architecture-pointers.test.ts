/**
 * Comments point at docs/ARCHITECTURE.md, never at files outside the repo (the house rule in
 * docs/ARCHITECTURE.md "Processes and rooms"). Every comment of the sources, tests, scripts,
 * benchmarks and configs, and every Markdown file, is read: a pointer (the document's file name
 * followed by quoted section names) must name headings the document has, and no comment may name
 * a path outside the repo (a relative path that climbs above it, or one of {@link OUTSIDE_NAMES}).
 * Comments are found with the TypeScript parser (JSX text and strings are not comments), so a
 * string that happens to hold a climbing path is not a pointer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** Folders whose files are read (besides the root's own files). */
const DIRS = ['main', 'renderer', 'preload', 'test', 'scripts', 'bench', 'docs', 'conformance', '.ci'];
const SKIP_DIRS = new Set(['node_modules', 'out', 'dist', 'test-results', 'playwright-report', 'artifacts', '.tmp']);
const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const HASH_COMMENTS = /\.(sh|ya?ml)$/;
/** Names that are known to live outside the repo (earlier homes of the design notes). */
const OUTSIDE_NAMES = [/\.\.\/shared\b/, /\bDESIGN\.md\b/, /(^|[\s(`'"])seeds\//];

/** One comment (or one Markdown file) and where it starts. */
interface Comment {
  text: string;
  line: number;
}

/** A pointer that points nowhere. */
interface BadPointer {
  line: number;
  problem: string;
}

/** Maps a character offset of `text` to its 1-based line. */
function lineCounter(text: string): (pos: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (pos) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** The comments of a JS/TS source, found with the TypeScript parser (JSX and strings are not comments). */
function codeComments(fileName: string, text: string): Comment[] {
  const kind = /\.[jt]sx$/.test(fileName) ? ts.ScriptKind.TSX : /\.[mc]?ts$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const lineAt = lineCounter(text);
  const seen = new Set<number>();
  const out: Comment[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ text: text.slice(r.pos, r.end), line: lineAt(r.pos) });
    }
  };
  if (text.startsWith('#!')) take(ts.getLeadingCommentRanges(text, text.indexOf('\n') + 1));
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return out.sort((a, b) => a.line - b.line);
}

/** The comments of a CSS file, a shell script or a YAML file; a Markdown file is one whole comment. */
function otherComments(fileName: string, text: string): Comment[] {
  if (fileName.endsWith('.md')) return [{ text, line: 1 }];
  const lineAt = lineCounter(text);
  const out: Comment[] = [];
  if (fileName.endsWith('.css')) {
    for (const m of text.matchAll(/\/\*[\s\S]*?\*\//g)) out.push({ text: m[0], line: lineAt(m.index) });
  } else if (HASH_COMMENTS.test(fileName)) {
    for (const m of text.matchAll(/(^|\s)#(?!!)[^\n]*/g)) out.push({ text: m[0], line: lineAt(m.index) });
  }
  return out;
}

/**
 * A comment's text as prose: comment markers and the line breaks of a wrapped comment removed,
 * so a pointer that runs over two lines reads as one.
 */
function prose(comment: string): string {
  return comment
    .replace(/^\s*(\/\*\*?|\/\/+|#)/, '')
    .replace(/\*\/\s*$/, '')
    .replace(/\r?\n[ \t]*(\*(?!\/)|\/\/+|#)?[ \t]*/g, ' ');
}

/** The headings of a Markdown document (`# …` to `###### …`), as written. */
function headings(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.add(m[1]!);
  }
  return out;
}

/**
 * The sections named by each pointer in `text` (prose): the quoted names right after the
 * document's file name, separated by commas, `and` or `or`.
 */
function pointedSections(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/ARCHITECTURE\.md\)?[\s(]*((?:"[^"\n]+"\s*(?:,|\band\b|\bor\b)?\s*)+)/g)) {
    for (const q of m[1]!.matchAll(/"([^"]+)"/g)) out.push(q[1]!);
  }
  return out;
}

/**
 * What is wrong with the pointers in the comments of one file: sections that are not headings
 * of docs/ARCHITECTURE.md, and paths outside the repo (relative to the file's folder, or a
 * known outside name).
 * @param file the file's path relative to the repo root
 */
function badPointers(file: string, comments: Comment[], sections: Set<string>): BadPointer[] {
  const out: BadPointer[] = [];
  const dir = path.posix.dirname(file);
  for (const c of comments) {
    const text = prose(c.text);
    const said = new Set<string>();
    const report = (problem: string) => {
      if (!said.has(problem)) out.push({ line: c.line, problem });
      said.add(problem);
    };
    for (const s of pointedSections(text)) if (!sections.has(s)) report(`docs/ARCHITECTURE.md has no section "${s}"`);
    for (const m of text.matchAll(/(?<![\w./-])((?:\.\.\/)+)[\w@.-]*/g)) {
      const target = path.posix.normalize(path.posix.join(dir, m[0]));
      if (target === '..' || target.startsWith('../')) report(`${m[0]} is outside the repo`);
    }
    for (const re of OUTSIDE_NAMES) {
      const m = re.exec(text);
      if (m) report(`${m[0].trim()} is outside the repo`);
    }
  }
  return out;
}

function walk(dir: string, out: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walk(p, out);
    } else if (e.isFile() && (CODE.test(e.name) || HASH_COMMENTS.test(e.name) || /\.(css|md)$/.test(e.name))) out.push(p);
  }
}

/** The repo's own files that carry comments: sources, tests, scripts, benchmarks, docs, configs. */
function repoFiles(): string[] {
  const out: string[] = [];
  for (const e of readdirSync(ROOT, { withFileTypes: true })) {
    if (e.isFile() && (CODE.test(e.name) || HASH_COMMENTS.test(e.name) || e.name.endsWith('.md'))) out.push(path.join(ROOT, e.name));
  }
  for (const d of DIRS) walk(path.join(ROOT, d), out);
  return out;
}

const SECTIONS = headings(readFileSync(path.join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8'));

describe('pointer rules, on planted comments', () => {
  const check = (file: string, source: string) => {
    const comments = CODE.test(file) ? codeComments(file, source) : otherComments(file, source);
    return badPointers(file, comments, SECTIONS).map((b) => b.problem);
  };

  it('accepts sections that exist, also when the pointer is wrapped over two comment lines', () => {
    expect(SECTIONS.has('MCP Apps: isolation')).toBe(true);
    expect(check('main/a.ts', '/**\n * Views (docs/ARCHITECTURE.md "MCP Apps", "MCP Apps: isolation").\n */\nexport const a = 1;\n')).toEqual([]);
    expect(check('main/a.ts', '/**\n * Views, see docs/ARCHITECTURE.md\n * "Security" and "OAuth".\n */\nexport const a = 1;\n')).toEqual([]);
    expect(check('eslint.config.js', '// the layer rule of docs/ARCHITECTURE.md\n// "Processes and rooms": x\nexport default 1;\n')).toEqual([]);
  });

  it('finds a section the document lacks, in a block, a line or a JSX comment', () => {
    expect(check('main/a.ts', '/** Schemas (docs/ARCHITECTURE.md "Tool schemas v2"). */\nexport const a = 1;\n')).toEqual(['docs/ARCHITECTURE.md has no section "Tool schemas v2"']);
    expect(check('main/a.ts', 'export const a = 1; // docs/ARCHITECTURE.md "Security", "Nowhere"\n')).toEqual(['docs/ARCHITECTURE.md has no section "Nowhere"']);
    expect(check('renderer/src/A.tsx', 'export const A = () => <div>{/* docs/ARCHITECTURE.md\n * "Nowhere" */}</div>;\n')).toEqual(['docs/ARCHITECTURE.md has no section "Nowhere"']);
    expect(check('renderer/src/a.css', '/* docs/ARCHITECTURE.md "Nowhere" */\n.a { color: red; }\n')).toEqual(['docs/ARCHITECTURE.md has no section "Nowhere"']);
    expect(check('docs/X.md', 'See docs/ARCHITECTURE.md "Nowhere".\n')).toEqual(['docs/ARCHITECTURE.md has no section "Nowhere"']);
  });

  it('finds paths outside the repo, and leaves strings and paths inside it alone', () => {
    expect(check('eslint.config.js', '// the layer rule of ../shared/DESIGN.md\nexport default 1;\n')).toEqual(['../shared is outside the repo', 'DESIGN.md is outside the repo']);
    expect(check('test/unit/a.test.ts', '/** Cases from seeds/issue-3.md. */\nexport {};\n')).toEqual(['seeds/ is outside the repo']);
    expect(check('main/mcp/a.ts', '/** Like ../../../notes.txt says. */\nexport {};\n')).toEqual(['../../../notes.txt is outside the repo']);
    expect(check('main/mcp/a.ts', "/** Like ../../preload/contract says. */\nexport const p = '../../../../etc/passwd';\n")).toEqual([]);
    expect(check('scripts/a.sh', '#!/bin/sh\n# see ../../elsewhere.md\necho "../../x"\n')).toEqual(['../../elsewhere.md is outside the repo']);
  });
});

describe('the repo', () => {
  it('has comments that point only at sections docs/ARCHITECTURE.md has and at files inside the repo', () => {
    const files = repoFiles();
    expect(files.length).toBeGreaterThan(300);
    const problems: string[] = [];
    let pointers = 0;
    for (const abs of files) {
      const rel = path.relative(ROOT, abs).split(path.sep).join('/');
      const text = readFileSync(abs, 'utf8');
      pointers += pointedSections(prose(text)).length;
      // Parsing is the slow part: a file whose whole text (comments, code and strings) has no bad
      // pointer has none in its comments either.
      if (!badPointers(rel, [{ text, line: 1 }], SECTIONS).length) continue;
      const comments = CODE.test(rel) ? codeComments(rel, text) : otherComments(rel, text);
      for (const b of badPointers(rel, comments, SECTIONS)) problems.push(`${rel}:${b.line}: ${b.problem}`);
    }
    // The scan really reads the pointers (a parser that finds none would pass vacuously).
    expect(pointers).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
