/**
 * Text from the org, the repositories or the user's files (an org name, a baseline id, a file
 * name) must not act on the terminal or the CI log it is printed to: a newline could forge a log
 * line (`::error::…` in GitHub Actions), ESC and OSC sequences recolour, retitle or hide output.
 * Such characters are shown as escapes instead, the way JSON would write them.
 */

// C0, DEL and C1 controls; the Unicode line and paragraph separators; bidirectional overrides and
// isolates, which reorder what is shown (CVE-2021-42574, "Trojan Source").
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// CONTROL without the characters a document keeps as they are: matching each line end only to give it
// back cost a callback per line of a big report.
const CONTROL_BUT_C0 = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_LINE_SPACE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(char: string): string {
  return NAMED[char] ?? (char.charCodeAt(0) <= 0xff ? textEscape(char) : jsonEscape(char));
}

/** One line for a terminal: every control character, the newline included, written as an escape, and no workflow command. */
export function terminalSafe(text: string): string {
  return noLegacyCommand(text.replace(CONTROL, escapeControl), textEscape);
}

/*
 * Workflow commands (issue 32). GitHub's runner reads a line of a step's output as a command when
 * it starts with `::` once leading spaces are trimmed (`::add-mask::`, `::stop-commands::`,
 * `::error::`), and a line holding `##[` anywhere (the older form, `##[add-mask]…`). A file a CI
 * step prints (`cat report.junit.xml`) is such output too. Text from the org or a repository
 * therefore never puts `##[` into an output, nor `::` at the start of a line: the character is
 * written the way the format writes it otherwise, so a reader of the format gets the same text.
 */

/** How a format writes one character so that its readers get it back and the file no longer holds it. */
type CharacterEscape = (char: string) => string;
const hex = (char: string, width: number) => char.charCodeAt(0).toString(16).padStart(width, '0');
/** Text for a terminal or a log, as control characters are shown: `\x5b`. */
const textEscape: CharacterEscape = (char) => `\\x${hex(char, 2)}`;
/** Markdown's backslash escape of punctuation: `\[`. */
export const markdownEscape: CharacterEscape = (char) => `\\${char}`;
/** A character reference of XML and HTML: `&#91;`. */
export const markupEscape: CharacterEscape = (char) => `&#${char.charCodeAt(0)};`;
/** A JSON string escape: `\u005b` (`##[` only ever stands inside a JSON string). */
export const jsonEscape: CharacterEscape = (char) => `\\u${hex(char, 4)}`;

/** `##[` written with its bracket escaped: the runner honours that form anywhere in a line. */
function noLegacyCommand(text: string, escape: CharacterEscape): string {
  return text.includes('##[') ? text.replace(/##\[/g, () => `##${escape('[')}`) : text;
}

/**
 * A whole document (summary.md, report.junit.xml, a README, the page) a CI step may print: no line
 * of it starts a workflow command and `##[` stands nowhere. Our own text never starts a line with
 * `::`, so only outside text is changed.
 */
export function workflowCommandsDisarmed(document: string, escape: CharacterEscape): string {
  return noLegacyCommand(document, escape).replace(/(^|[\r\n])((?:[^\S\r\n]|\u0085)*)::/g, (_, lineBreak: string, space: string) => `${lineBreak}${space}${escape(':')}:`);
}

/** Outside text that starts a line of ours (the org's name in the summary line): it starts no workflow command. */
export function lineStartSafe(text: string): string {
  return workflowCommandsDisarmed(terminalSafe(text), textEscape);
}

/**
 * The redraw the progress bar starts its line with (carriage return, erase line): the one
 * control sequence of ours that reaches stderr. Only at the very start of a write, where no
 * outside text ever stands, is it let through.
 */
export const REDRAW_LINE = '\r\x1b[2K';

/**
 * A stderr writer that can act on nothing: the newlines that end our own lines stay, every other
 * control character becomes visible. Lines carrying outside text are made one line with
 * terminalSafe where they are composed; this guards whatever a composer forgot.
 */
export function terminalWriter(write: (text: string) => void): (text: string) => void {
  return (text) => {
    const redraw = text.startsWith(REDRAW_LINE) ? REDRAW_LINE : '';
    write(redraw + noLegacyCommand(text.slice(redraw.length).replace(CONTROL_BUT_NEWLINE, escapeControl), textEscape));
  };
}

/**
 * For files a CI runner shows or prints (summary.md, the JUnit XML, SARIF messages): every control
 * character written as an escape, as terminalSafe does, but the line ends and tabs the format
 * itself uses (`keep`).
 */
export function controlsShown(text: string, keep: readonly string[]): string {
  return text.replace(CONTROL, (char) => (keep.includes(char) ? char : escapeControl(char)));
}

/**
 * JSON text with the control characters JSON.stringify leaves raw (DEL, C1, line separators, bidi)
 * written as \u escapes: a parser reads the same data, a terminal or viewer showing the file gets
 * nothing to act on. A C0 character left raw is JSON's own whitespace (it escapes those in strings).
 */
export function jsonControlsEscaped(json: string): string {
  return noLegacyCommand(json.replace(CONTROL_BUT_C0, jsonEscape), jsonEscape);
}

/**
 * HTML (the page) with every control character but the newline, tab and carriage return written as
 * a `\uXXXX` escape: shown as text in the page, and the same character again inside the page's JSON
 * data, where it is a valid escape (a `\x..` one would not be).
 */
export function htmlControlsEscaped(html: string): string {
  return html.replace(CONTROL_BUT_LINE_SPACE, jsonEscape);
}
