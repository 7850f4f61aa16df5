/** An unterminated quote in a command line; `quote` says which (the UI translates by it). */
export class CommandLineError extends Error {
  constructor(readonly quote: 'single' | 'double') {
    super(quote === 'single' ? 'Unterminated single quote' : 'Unterminated double quote');
  }
}

/**
 * Split a command line typed by the user into argv, POSIX-shell style quoting only: single quotes
 * keep everything literally, double quotes allow `\"` and `\\`, a backslash outside quotes escapes
 * the next character. No expansion of any kind happens (nothing is ever run through a shell).
 *
 * @throws CommandLineError on an unterminated quote.
 */
export function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new CommandLineError('single');
      cur += line.slice(i + 1, end);
      has = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      has = true;
      for (;;) {
        if (i >= line.length) throw new CommandLineError('double');
        const c = line[i]!;
        if (c === '"') break;
        if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
          cur += line[i + 1];
          i += 2;
        } else {
          cur += c;
          i++;
        }
      }
      i++;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[i + 1];
      has = true;
      i += 2;
    } else if (/\s/.test(ch)) {
      if (has) out.push(cur);
      cur = '';
      has = false;
      i++;
    } else {
      cur += ch;
      has = true;
      i++;
    }
  }
  if (has) out.push(cur);
  return out;
}

/** Render argv back as a line the splitter reads identically. */
export function joinCommandLine(argv: string[]): string {
  // `***` (a stored secret argument, docs/ARCHITECTURE.md "Masked views only") reads the same unquoted.
  return argv.map((a) => (a !== '' && (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) || a === '***') ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
