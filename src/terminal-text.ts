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

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(char: string): string {
  const code = char.charCodeAt(0);
  return NAMED[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/** One line for a terminal: every control character, the newline included, written as an escape. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, escapeControl);
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
    write(redraw + text.slice(redraw.length).replace(CONTROL_BUT_NEWLINE, escapeControl));
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
  return json.replace(CONTROL, (char) => (char < ' ' ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * HTML (the page) with every control character but the newline, tab and carriage return written as
 * a `\uXXXX` escape: shown as text in the page, and the same character again inside the page's JSON
 * data, where it is a valid escape (a `\x..` one would not be).
 */
export function htmlControlsEscaped(html: string): string {
  return html.replace(CONTROL, (char) => (char === '\n' || char === '\t' || char === '\r' ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
