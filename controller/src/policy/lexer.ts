/**
 * The lexer of the policy language (grammar in docs/policy.md). It turns a
 * document's text into tokens that carry their line and column (both 1-based),
 * so that every parse error can say where it is.
 *
 * Token kinds:
 *   realm     `job::/sandbox/[name]`, `*::/`: a word that contains `::`, up to
 *             white space or `{`; the parser checks its shape
 *   ident     `permit`, `read`, `total.memory` (letters, digits, `_`, `.`)
 *   claimref  `auth_server@platform->name`: issuer `@` domain `->` attribute
 *   template  `[name]`
 *   string    `"..."` with the escapes \" \\ \n \t
 *   number    `5`, `2GB`, `1.5GiB`: digits with an optional fraction and unit
 *   punct     { } ( ) , ; && || == !=
 *   eof
 * Comments run from `//` or `#` to the end of the line.
 */
import { PolicyParseError } from './errors.js';

export type TokenKind = 'realm' | 'ident' | 'claimref' | 'template' | 'string' | 'number' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  /** The token's value: a string's content without quotes and escapes, a template's name without brackets. */
  value: string;
  line: number;
  column: number;
}

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z0-9_.]/;
const DOMAIN_CHAR = /[A-Za-z0-9_.-]/;
const REALM_CHAR = /[A-Za-z0-9_.@+\-/:[\]*]/;
const TWO_CHAR_PUNCT = new Set(['&&', '||', '==', '!=']);
const ONE_CHAR_PUNCT = new Set(['{', '}', '(', ')', ',', ';']);

/** Describes a token for error messages: `"{"`, `identifier "foo"`, `end of document`. */
export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of document';
    case 'punct':
      return `"${t.value}"`;
    case 'string':
      return `string "${t.value}"`;
    case 'template':
      return `[${t.value}]`;
    case 'ident':
      return `"${t.value}"`;
    default:
      return `${t.kind} "${t.value}"`;
  }
}

export function tokenize(docName: string, text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const fail = (message: string, at = i): never => {
    throw new PolicyParseError(docName, line, at - lineStart + 1, message);
  };
  const push = (kind: TokenKind, value: string, start: number) => tokens.push({ kind, value, line, column: start - lineStart + 1 });

  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (c === '"') {
      i++;
      let value = '';
      for (;;) {
        if (i >= text.length || text[i] === '\n') fail('unterminated string', start);
        const d = text[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\') {
          const e = text[i + 1];
          const escaped = e === '"' ? '"' : e === '\\' ? '\\' : e === 'n' ? '\n' : e === 't' ? '\t' : undefined;
          if (escaped === undefined) fail(`unknown escape "\\${e ?? ''}" in a string`);
          value += escaped;
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      push('string', value, start);
      continue;
    }
    const two = text.slice(i, i + 2);
    if (TWO_CHAR_PUNCT.has(two)) {
      push('punct', two, start);
      i += 2;
      continue;
    }
    if (ONE_CHAR_PUNCT.has(c)) {
      push('punct', c, start);
      i++;
      continue;
    }
    if (/[0-9]/.test(c)) {
      while (i < text.length && /[0-9]/.test(text[i]!)) i++;
      if (text[i] === '.' && /[0-9]/.test(text[i + 1] ?? '')) {
        i++;
        while (i < text.length && /[0-9]/.test(text[i]!)) i++;
      }
      while (i < text.length && /[A-Za-z]/.test(text[i]!)) i++;
      push('number', text.slice(start, i), start);
      continue;
    }
    if (c === '[') {
      const m = /^\[([A-Za-z_][A-Za-z0-9_]*)\]/.exec(text.slice(i, i + 66));
      if (!m) fail('expected a template variable such as [name]');
      push('template', m![1]!, start);
      i += m![0].length;
      continue;
    }
    if (c === '*' || IDENT_START.test(c)) {
      // A word followed by `::` is a realm name: take it whole.
      let j = i + 1;
      while (j < text.length && IDENT_CHAR.test(text[j]!)) j++;
      if (text.startsWith('::', j)) {
        while (j < text.length && REALM_CHAR.test(text[j]!)) j++;
        push('realm', text.slice(start, j), start);
        i = j;
        continue;
      }
      if (c === '*') fail('unexpected "*"; a realm name looks like *::/');
      const word = text.slice(start, j);
      if (text[j] === '@') {
        let k = j + 1;
        while (k < text.length && DOMAIN_CHAR.test(text[k]!) && !text.startsWith('->', k)) k++;
        if (k === j + 1 || !text.startsWith('->', k)) fail(`expected a claim reference such as auth_server@platform->name`, start);
        let m = k + 2;
        while (m < text.length && IDENT_CHAR.test(text[m]!)) m++;
        if (m === k + 2) fail('expected an attribute name after "->"', k + 2);
        push('claimref', text.slice(start, m), start);
        i = m;
        continue;
      }
      push('ident', word, start);
      i = j;
      continue;
    }
    fail(`unexpected character "${c}"`);
  }
  tokens.push({ kind: 'eof', value: '', line, column: i - lineStart + 1 });
  return tokens;
}
