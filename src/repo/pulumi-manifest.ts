import { posix } from 'node:path';
import type { ProviderFacts } from './provider-version.js';
import type { SourceText } from './source-text.js';
import { parsedJson } from '../parse-json.js';

/** The Port Pulumi package under each ecosystem's name (PyPI normalises `-` and `_`). */
const NPM_PACKAGE = '@port-labs/port';
const PYPI_PACKAGE = /^port[-_.]pulumi$/i;

const PROJECT_FILE = /^Pulumi\.ya?ml$/;

/** Whether a file may pin the Port Pulumi package (or marks a Pulumi project): read for that, never judged for findings. */
export function isPulumiManifest(path: string): boolean {
  const name = posix.basename(path);
  return name === 'package.json' || name === 'pyproject.toml' || /^requirements[\w.-]*\.txt$/.test(name) || PROJECT_FILE.test(name);
}

/** The folders of a scan that hold a `Pulumi.yaml`: the projects, found once per scan. */
export function pulumiProjects(paths: readonly string[]): ReadonlySet<string> {
  return new Set(paths.filter((p) => PROJECT_FILE.test(posix.basename(p))).map((p) => posix.dirname(p)));
}

/**
 * The Pulumi project a file belongs to: the nearest folder above it (or its own) among `projects`,
 * else its own folder. A program may sit in `src/` (`main: src/`) while the manifest that pins
 * the package sits beside `Pulumi.yaml`.
 */
export function pulumiProject(path: string, projects: ReadonlySet<string>): string {
  for (let dir = posix.dirname(path); ; dir = posix.dirname(dir)) {
    if (projects.has(dir)) return dir;
    if (dir === posix.dirname(dir) || dir === '.') return posix.dirname(path);
  }
}

/**
 * The version of the Port Pulumi package a manifest asks for, as a provider constraint of its
 * project (the manifest's directory); undefined when the manifest does not name the package.
 * An entry without a version (`port_pulumi` alone) is a constraint of `*`: any version.
 */
export function pulumiManifestFacts(source: SourceText): ProviderFacts | undefined {
  const name = posix.basename(source.path);
  if (PROJECT_FILE.test(name)) return undefined; // it marks the project (pulumiProject), it pins nothing
  const found = name === 'package.json' ? npmVersion(source.text) : name === 'pyproject.toml' ? pyprojectVersion(source.text) : requirementsVersion(source.text);
  if (!found) return undefined;
  return { tool: 'pulumi', needs: [], constraint: { text: found.text, at: `${source.path}:${source.lineOf(found.offset)}` } };
}

interface Found {
  text: string;
  offset: number;
}

function npmVersion(text: string): Found | undefined {
  // A package.json that is no JSON pins nothing this check can read, and holds no Port resources.
  const manifest = parsedJson(text);
  if (typeof manifest !== 'object' || manifest === null) return undefined;
  for (const section of ['dependencies', 'devDependencies', 'peerDependencies'] as const) {
    const version = (manifest as Record<string, Record<string, unknown> | undefined>)[section]?.[NPM_PACKAGE];
    if (typeof version === 'string') return { text: version.trim(), offset: Math.max(0, text.indexOf(`"${NPM_PACKAGE}"`)) };
  }
  return undefined;
}

/** `port_pulumi==2.14.4`, `port-pulumi>=2.16,<3`, `port_pulumi`: one requirement line (also inside pyproject's lists). */
function requirement(line: string): string | undefined {
  const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;#]*)/.exec(line);
  // Prose that starts with the name (`"port_pulumi stack"`) is no requirement: a version starts with an operator.
  if (!match || !PYPI_PACKAGE.test(match[1]!) || !/^(?:$|[<>=!~^@(])/.test(match[2]!.trim())) return undefined;
  return match[2]!.trim() || '*';
}

function requirementsVersion(text: string): Found | undefined {
  let offset = 0;
  for (const line of text.split('\n')) {
    const version = requirement(line);
    if (version !== undefined) return { text: version, offset };
    offset += line.length + 1;
  }
  return undefined;
}

/** PEP 621 `dependencies = ["port-pulumi>=2.16"]` or Poetry's `port_pulumi = "^2.16"` (or `{ version = "…" }`). */
function pyprojectVersion(text: string): Found | undefined {
  for (const match of text.matchAll(/["']([^"'\n]+)["']/g)) {
    const version = requirement(match[1]!);
    if (version !== undefined) return { text: version, offset: match.index };
  }
  const poetry = /^\s*(port[-_.]pulumi)\s*=\s*(?:"([^"]*)"|\{[^}\n]*version\s*=\s*"([^"]*)")/im.exec(text);
  if (poetry) return { text: (poetry[2] ?? poetry[3] ?? '*').trim() || '*', offset: poetry.index + poetry[0].indexOf(poetry[1]!) };
  return undefined;
}
