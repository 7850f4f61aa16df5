/**
 * Deterministic markdown of a given number of words (whitespace-separated tokens, as the fake
 * model streams them): headings, paragraphs with bold, italics, inline code and links, bullet
 * lists, fenced code blocks and small tables — what a model's answers look like. Pure.
 */

const WORDS = 'the of and to in is you that it for on are as with they at be this have from or one had by word but not what all were we when your can said there use an each which do how their if will up other about out many then them these so some would make like into time has look two more write go see number way could people than first water been call who its now find long down day did get come made may part'.split(' ');

/**
 * Markdown text of exactly `count` words. `seed` varies the text between messages.
 * @returns the text; the words are separated by spaces and newlines only
 */
export function markdownWords(count: number, seed = 1): string {
  let s = (seed * 2654435761) >>> 0 || 1;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const word = (): string => WORDS[Math.floor(rnd() * WORDS.length)]!;
  const out: string[] = [];
  let left = count;
  const push = (w: string): void => {
    if (left > 0) {
      out.push(w);
      left--;
    }
  };
  let block = 0;
  while (left > 0) {
    const kind = block++ % 7;
    if (kind === 0) {
      push('\n\n##');
      for (let i = 0; i < 4; i++) push(word());
      push('\n\n');
    } else if (kind === 3) {
      for (let i = 0; i < 5 && left > 0; i++) {
        push('\n-');
        push(`**${word()}**`);
        for (let j = 0; j < 6; j++) push(word());
      }
      push('\n\n');
    } else if (kind === 5) {
      push('\n\n```ts\n');
      for (let i = 0; i < 6 && left > 0; i++) {
        push('const');
        push(`${word()}_${i}`);
        push('=');
        push(`call("${word()}");\n`);
      }
      push('```\n\n');
    } else if (kind === 6) {
      push('\n\n|');
      push('name');
      push('|');
      push('count');
      push('|\n|');
      push('---');
      push('|');
      push('---:');
      push('|\n');
      for (let i = 0; i < 3 && left > 0; i++) {
        push('|');
        push(word());
        push('|');
        push(String(i * 7));
        push('|\n');
      }
      push('\n');
    } else {
      for (let i = 0; i < 60; i++) {
        const r = rnd();
        const w = word();
        push(r < 0.05 ? `**${w}**` : r < 0.1 ? `*${w}*` : r < 0.13 ? `\`${w}()\`` : r < 0.14 ? `[${w}](https://example.com/${w})` : w);
      }
      push('\n\n');
    }
  }
  // Words are joined with a space unless a word carries its own newlines.
  return out.reduce((acc, w) => (acc === '' ? w : /^\n/.test(w) || /\n$/.test(acc) ? acc + w : `${acc} ${w}`), '');
}
