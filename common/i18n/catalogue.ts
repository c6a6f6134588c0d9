// The one renderer of the catalogues, without React and without any dictionary: pages, the
// Worker's API and the DeviceHub all word messages through here
// (docs/decisions/011-message-catalogue.md). The dictionaries themselves are in
// ./dictionaries.ts, so that a page which imports this module ships neither language: the
// browser gets its reader's dictionary from the root loader's data.
//
// Messages use a subset of ICU MessageFormat:
//   {name}                                   the value as given (numbers in the reader's locale)
//   {name, select, a {…} b {…} other {…}}    a branch per value
//   {name, plural, =0 {…} one {# …} other {# …}}   a branch per plural category of the
//                                            reader's language (Intl.PluralRules); # is the number
// Branches nest. Text never contains braces, and apostrophes are plain text (no ICU quoting).

import type { MessageKey } from "./en.ts";
import { formatNumber, localeOf } from "./format.ts";
import type { Language } from "./language.ts";

export type { MessageKey };
export type MessageValues = Record<string, string | number>;
export type Messages = Record<MessageKey, string>;
/** What wording a common message needs: the reader's language and that language's dictionary. */
export type Words = { language: Language; messages: Messages };

/** Hindi first: most of our farmers read it before English. */
export const DEFAULT_LANGUAGE: Language = "hi";
export const LANGUAGE_COOKIE = "sinchai_lang";

export function isLanguage(value: unknown): value is Language {
  return value === "hi" || value === "en";
}

/** Indian locale formats for numbers and dates, in the reader's script (../format.ts). */
export { localeOf };

/** One message of `words`' dictionary; without that dictionary (no root data) the key is shown. */
export function wordIn(words: Words, key: MessageKey, values: MessageValues = {}): string {
  const pattern = words.messages[key];
  return pattern === undefined ? key : formatMessage(pattern, values, words.language);
}

/** Renders one message pattern (the subset above) in `language`. */
export function formatMessage(pattern: string, values: MessageValues, language: Language): string {
  const { text, end } = render({ pattern, values, language }, 0, null);
  if (end !== pattern.length) throw new Error(`Unbalanced "}" at ${end} in message: ${pattern}`);
  return text;
}

/** A message being rendered: its pattern, the values it names and the reader's language. */
type Rendering = { pattern: string; values: MessageValues; language: Language };

/** Renders from `start` up to the `}` that closes the enclosing branch (or the end). */
function render(rendering: Rendering, start: number, hash: string | null): { text: string; end: number } {
  const { pattern } = rendering;
  let text = "";
  let index = start;
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === "}") return { text, end: index };
    if (char === "#" && hash !== null) {
      text += hash;
      index++;
      continue;
    }
    if (char !== "{") {
      text += char;
      index++;
      continue;
    }
    const argument = readArgument(rendering, index + 1, hash);
    text += argument.text;
    index = argument.end + 1;
  }
  return { text, end: index };
}

/** `{name}`, `{name, select, …}` or `{name, plural, …}` starting after its `{`; `end` is its `}`. */
function readArgument(rendering: Rendering, start: number, hash: string | null): { text: string; end: number } {
  const { pattern, values, language } = rendering;
  const nameEnd = indexOfAny(pattern, start, ",}");
  const name = pattern.slice(start, nameEnd).trim();
  const value = values[name];
  if (pattern[nameEnd] === "}") {
    const text = value === undefined ? `{${name}}` : typeof value === "number" ? formatNumber(value, language) : value;
    return { text, end: nameEnd };
  }
  const typeEnd = indexOfAny(pattern, nameEnd + 1, ",}");
  const type = pattern.slice(nameEnd + 1, typeEnd).trim();
  if ((type !== "select" && type !== "plural") || pattern[typeEnd] !== ",") {
    throw new Error(`Unknown argument type "${type}" in message: ${pattern}`);
  }
  // The branches: `key {message}` until the argument's closing brace.
  const branches = new Map<string, number>();
  let index = typeEnd + 1;
  for (;;) {
    while (pattern[index] === " ") index++;
    if (pattern[index] === "}") break;
    const open = pattern.indexOf("{", index);
    if (open < 0) throw new Error(`Unfinished argument "${name}" in message: ${pattern}`);
    branches.set(pattern.slice(index, open).trim(), open + 1);
    index = closingBrace(pattern, open + 1) + 1;
  }
  const end = index;
  let branch: number | undefined;
  let branchHash = hash;
  if (type === "select") {
    branch = branches.get(String(value)) ?? branches.get("other");
  } else {
    const count = Number(value);
    branch =
      branches.get(`=${count}`) ??
      branches.get(new Intl.PluralRules(localeOf(language)).select(count)) ??
      branches.get("other");
    branchHash = formatNumber(count, language);
  }
  if (branch === undefined) throw new Error(`No branch for ${name}=${String(value)} in message: ${pattern}`);
  return { text: render(rendering, branch, branchHash).text, end };
}

function indexOfAny(pattern: string, start: number, chars: string): number {
  for (let index = start; index < pattern.length; index++) if (chars.includes(pattern[index]!)) return index;
  throw new Error(`Unfinished argument in message: ${pattern}`);
}

/** The `}` matching a branch that opens just before `start`. */
function closingBrace(pattern: string, start: number): number {
  let depth = 1;
  for (let index = start; index < pattern.length; index++) {
    if (pattern[index] === "{") depth++;
    else if (pattern[index] === "}" && --depth === 0) return index;
  }
  throw new Error(`Unbalanced "{" in message: ${pattern}`);
}
