import type { Finding } from '../model/finding.js';
import { compareText } from '../compare-text.js';
import { fileLocation } from '../file-location.js';
import { textSecretFragments } from '../repo/redact-findings.js';
import { tokenShapedValues } from '../secrets/token-shapes.js';
import type { PatchRepo } from './apply-root.js';
import { missingFix, unprovenRewrite, type FileEncoding, type FixFile, type FixKit, type PatchedFile, type UnresolvedFix } from './fix-kit.js';
import { fileName, uniqueNames } from './kit-names.js';
import { pulumiSystemBlueprintEdits, terraformSystemBlueprintEdits } from './system-blueprint.js';
import { applyEdits, unifiedDiff, type TextEdit } from './unified-diff.js';
import { addedNeeds, constraintChanges } from './version-constraints.js';

/** A repository file as read at the edge: its path as the findings name it, and its text. */
export interface RepoFile {
  path: string;
  text: string;
  /** How `text` was decoded: `latin1` for a file that is not UTF-8, so each byte is one character and comes back unchanged. */
  encoding?: FileEncoding;
  /** A link: the path of the file it points at (read under that path), or the absolute target outside every repository. */
  linkTo?: string;
}

/** The kit's repository part: `repo.patch`, or `repo-<name>.patch` per repository when there are several. */
interface RepoPatch extends FixKit {
  /** Where each patch file is applied from, for the README's commands: the repository as shown, and its root from where the audit ran. */
  applyAt: PatchPlace[];
}

/** One patch file and the repository it is applied in. */
export interface PatchPlace {
  path: string;
  /** The repository as the findings show it (`--repo` as given; an absolute one by its folder's name). */
  repository: string;
  /** The top of its git work tree, relative to where the audit ran. */
  rootFromHere: string;
}

/**
 * `repo.patch`: every rewrite of a file finding, placed at the exact text the finding quotes on its
 * line, as one unified diff. A finding whose text cannot be placed (redacted, shortened, merged with
 * another on its line) or that has no rewrite is unresolved, never guessed at.
 */
export function repoPatch(findings: readonly Finding[], files: readonly RepoFile[], repos: readonly PatchRepo[] = []): RepoPatch {
  const texts = new Map(files.filter((file) => file.linkTo === undefined).map((file) => [file.path, file.text]));
  const encodings = new Map(files.map((file) => [file.path, file.encoding ?? 'utf8']));
  const links = new Map(files.flatMap((file) => (file.linkTo === undefined ? [] : [[file.path, file.linkTo] as const])));
  const byFile = new Map<string, { edits: TextEdit[]; ids: string[] }>();
  const unresolved: UnresolvedFix[] = [];
  for (const finding of findings) {
    if (finding.resource.type !== 'file' || finding.verdict === 'unaffected') continue;
    const found = fileLocation(finding.location);
    // A link is patched through the file it points at (the same text, at the same line): `git apply`
    // rejects a text patch on a link, and `--fix` would replace the link by a file.
    const linkTo = found && links.get(found.path);
    if (found && linkTo !== undefined && !texts.has(linkTo)) {
      unresolved.push({ id: finding.id, missing: `a link to a file outside the repository (${linkTo}): repo.patch and --fix change only files inside it; edit that file by hand` });
      continue;
    }
    const where = found && linkTo !== undefined ? { ...found, path: linkTo } : found;
    const text = where && texts.get(where.path);
    const breaks = finding.verdict === 'breaks';
    if (finding.rewrite === undefined) {
      if (breaks) unresolved.push({ id: finding.id, missing: missingFix(finding) });
      continue;
    }
    const unproven = unprovenRewrite(finding);
    if (unproven !== undefined) {
      if (breaks) unresolved.push({ id: finding.id, missing: unproven });
      continue;
    }
    if (!where || text === undefined) {
      unresolved.push({ id: finding.id, missing: 'the file could not be read again to place the change' });
      continue;
    }
    const edits = placeRewrite(where.path, text, where.line, finding.evidence, finding.rewrite);
    if (edits && applyEdits(text, edits) === text) {
      unresolved.push({ id: finding.id, missing: `a rewrite that changes the text: the one computed for line ${where.line} changes nothing, so edit it by hand (see the suggestion)` });
      continue;
    }
    const entry = byFile.get(where.path) ?? { edits: [], ids: [] };
    // The very change another finding makes (a link's finding and its target's) is made once, for both.
    const fresh = edits?.filter((edit) => !entry.edits.some((other) => sameEdit(edit, other)));
    if (!edits || !fresh || fresh.some((edit) => entry.edits.some((other) => overlaps(edit, other)))) {
      unresolved.push({ id: finding.id, missing: `the quoted text was not found as written on line ${where.line} (shortened, redacted or shared with another change): edit it by hand` });
      continue;
    }
    entry.edits.push(...fresh);
    entry.ids.push(finding.id);
    byFile.set(where.path, entry);
  }
  unresolved.push(...raiseVersionConstraints(byFile, texts));
  const patched: PatchedFile[] = [];
  const perRepo = new Map<PatchRepo | undefined, { sections: { diff: string; encoding: FileEncoding }[]; ids: string[] }>();
  for (const [path, entry] of [...byFile].sort(([a], [b]) => compareText(a, b))) {
    const before = texts.get(path)!;
    const { repo, inRepo } = placeInRepo(path, repos);
    const diff = unifiedDiff(inRepo, before, entry.edits);
    if (diff === '') continue;
    const encoding = encodings.get(path) ?? 'utf8';
    patched.push({ path, before, after: applyEdits(before, entry.edits), ...(encoding !== 'utf8' && { encoding }) });
    // The patch quotes the lines around each change: a secret among them would leave the file with
    // it (CI artifacts, tickets). Such a file's changes stay out of repo.patch; `--fix` still makes them.
    const secret = secretsIn(before).find(({ value }) => diff.includes(value));
    if (secret !== undefined) {
      for (const id of entry.ids) unresolved.push({ id, missing: `a change next to ${secret.what} in ${path}: it is left out of repo.patch so the secret is not copied; run with --fix to apply it in place, or edit by hand` });
      continue;
    }
    const part = perRepo.get(repo) ?? { sections: [], ids: [] };
    part.sections.push({ diff, encoding });
    part.ids.push(...entry.ids);
    perRepo.set(repo, part);
  }
  const names = uniqueNames(repos.map((repo) => ({ key: `${repo.root}/${repo.prefix}`, base: `repo-${fileName(repo.name)}` })));
  const out: FixFile[] = [];
  const applyAt: RepoPatch['applyAt'] = [];
  for (const [repo, part] of perRepo) {
    const path = repos.length > 1 && repo ? `${names.get(`${repo.root}/${repo.prefix}`)!}.patch` : 'repo.patch';
    const content = part.sections.map((section) => section.diff).join('');
    // A section of a file that is not UTF-8 is written in that file's bytes, so its lines match the file.
    const bytes = part.sections.some((section) => section.encoding !== 'utf8') ? Buffer.concat(part.sections.map((section) => Buffer.from(section.diff, section.encoding))) : undefined;
    out.push({ path, kind: 'repo-patch', findings: part.ids.sort(), content, ...(bytes && { bytes }) });
    if (repo) applyAt.push({ path, repository: repo.shown || repo.name, rootFromHere: repo.rootFromHere });
  }
  out.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files: out, applyAt, patched, unresolved };
}

/**
 * Per Terraform configuration (a folder of .tf files) the patch changes: its version constraints
 * raised where they keep out what the patch adds (port_system_blueprint, ownership, import and
 * removed blocks), as edits of the same patch; a constraint it cannot read or place is returned
 * for "Not in the kit" with its exact line.
 */
function raiseVersionConstraints(byFile: Map<string, { edits: TextEdit[]; ids: string[] }>, texts: ReadonlyMap<string, string>): UnresolvedFix[] {
  const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
  const folders = new Set([...byFile.keys()].filter((path) => path.endsWith('.tf')).map(folderOf));
  const unresolved: UnresolvedFix[] = [];
  for (const folder of [...folders].sort()) {
    const patchedHere = [...byFile].filter(([path]) => path.endsWith('.tf') && folderOf(path) === folder);
    const needs = patchedHere.flatMap(([path, entry]) => addedNeeds(texts.get(path)!, applyEdits(texts.get(path)!, entry.edits)));
    if (needs.length === 0) continue;
    const ids = [...new Set(patchedHere.flatMap(([, entry]) => entry.ids))].sort();
    const files = [...texts].filter(([path]) => path.endsWith('.tf') && folderOf(path) === folder && !path.slice(folder.length).includes('/')).map(([path, text]) => ({ path, text }));
    const change = constraintChanges(files, needs);
    for (const { path, edit, to, needs: whys } of change.edits) {
      const entry = byFile.get(path) ?? { edits: [], ids: [] };
      if (entry.edits.some((other) => overlaps(edit, other))) {
        unresolved.push({ id: ids[0]!, missing: `the version constraint in ${path} raised to "${to}" by hand (another change of the patch sits on its line), for ${whys.join(', ')}` });
        continue;
      }
      // The change belongs to the findings whose rewrites need it, already listed with their own files.
      entry.edits.push(edit);
      byFile.set(path, entry);
    }
    for (const line of change.byHand) unresolved.push({ id: ids[0]!, missing: `a version constraint changed by hand: ${line}` });
  }
  return unresolved;
}

/** The repository a finding's path is in (the longest prefix), and the path from that repository's apply root. */
function placeInRepo(path: string, repos: readonly PatchRepo[]): { repo?: PatchRepo; inRepo: string } {
  const matching = repos.filter((r) => r.shown === '' || path.startsWith(`${r.shown}/`)).sort((a, b) => b.shown.length - a.shown.length);
  const repo = matching[0];
  if (!repo) return { inRepo: path };
  const rest = repo.shown === '' ? path : path.slice(repo.shown.length + 1);
  return { repo, inRepo: repo.prefix === '' ? rest : `${repo.prefix}/${rest}` };
}

const sameEdit = (a: TextEdit, b: TextEdit) => a.start === b.start && a.end === b.end && a.text === b.text;
const overlaps = (a: TextEdit, b: TextEdit) => a.start < b.end && b.start < a.end || (a.start === b.start && a.end === b.end);

/**
 * Secret values written in a file, as the scan cuts them from findings. Words (the `Bearer` of
 * `Authorization: f"Bearer {token}"`) and variable references are not secrets themselves: a value
 * counts when it is 8 characters or more and holds something besides letters and quotes.
 */
function quotedSecrets(text: string): string[] {
  return [...textSecretFragments(text)].filter((secret) => secret.length >= 8 && /[^A-Za-z"'`]/.test(secret) && !/^\$\{?\w+\}?$/.test(secret));
}

/**
 * Every secret written in a file that a patch must not quote: values known by their shape (a
 * GitHub token, a Slack webhook, a JWT) whatever holds them, then values under secret-named keys.
 */
function secretsIn(text: string): { what: string; value: string }[] {
  return [...tokenShapedValues(text), ...quotedSecrets(text).map((value) => ({ what: 'a secret', value }))];
}

const IDENTIFIER_KEY = /^["']?identifier["']?\s*[:=]/;
const OWNERSHIP_KEY = /^["']?ownership["']?\s*[:=]/;

/** The edits that put one finding's rewrite into the file, or undefined when its text is not where the finding says. */
function placeRewrite(path: string, text: string, line: number, evidence: string, rewrite: string): TextEdit[] | undefined {
  const lineStart = nthLineStart(text, line);
  if (lineStart === undefined) return undefined;
  const lineEnd = text.indexOf('\n', lineStart);
  const at = text.indexOf(evidence, lineStart);
  if (at < 0 || (lineEnd >= 0 && at > lineEnd)) return undefined;
  const end = at + evidence.length;
  // A blueprint with no ownership gets one beside its identifier: the finding quotes the resource's
  // first line (or, in reports of earlier versions, the identifier's).
  if (OWNERSHIP_KEY.test(rewrite) && IDENTIFIER_KEY.test(evidence)) return [insertBeside(path, text, lineStart, end, rewrite)];
  if (OWNERSHIP_KEY.test(rewrite) && RESOURCE_HEADER.test(evidence)) {
    const identifier = identifierLineAfter(text, end);
    return identifier && [insertBeside(path, text, identifier.lineStart, identifier.end, rewrite)];
  }
  if (/^resource\s+"port_blueprint"/.test(evidence) && rewrite.includes('"port_system_blueprint"')) return terraformSystemBlueprintEdits(path, text, at);
  if (/(^|\.)Blueprint$/.test(evidence) && rewrite.endsWith('SystemBlueprint')) return pulumiSystemBlueprintEdits(path, text, at, rewrite);
  return [{ start: at, end, text: rewrite }];
}

/** A resource's first line: a Terraform block, a Pulumi constructor call. */
const RESOURCE_HEADER = /^resource\s+"|\bBlueprint\s*\(/;

/** How far below a resource's first line its `identifier` is looked for. */
const IDENTIFIER_SEARCH_LINES = 40;

/** The resource's `identifier` line below its first line: where it starts, and where its value ends. */
function identifierLineAfter(text: string, from: number): { lineStart: number; end: number } | undefined {
  let lineStart = text.indexOf('\n', from) + 1;
  for (let n = 0; lineStart > 0 && n < IDENTIFIER_SEARCH_LINES; n++) {
    const lineEnd = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    const trimmed = line.trim();
    if (IDENTIFIER_KEY.test(trimmed)) {
      const at = lineStart + line.indexOf(trimmed);
      // The value ends the line, or at the comma that ends the entry.
      return { lineStart, end: at + trimmed.replace(/,\s*$/, '').length };
    }
    // Another resource begins: this one has no identifier line of its own to write beside.
    if (/^resource\s+"|^\S.*\bnew\s+\w+(\.\w+)*\(|^\w+\s*=\s*\w+(\.\w+)*\(/.test(line)) return undefined;
    if (lineEnd < 0) return undefined;
    lineStart = lineEnd + 1;
  }
  return undefined;
}

function insertBeside(path: string, text: string, lineStart: number, end: number, rewrite: string): TextEdit {
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  if (path.endsWith('.tf')) return { start: end, end, text: `\n${indent}${rewrite}` };
  // JSON, JS/TS, Python: entries are separated by commas.
  if (text[end] === ',') return { start: end + 1, end: end + 1, text: `\n${indent}${rewrite},` };
  return { start: end, end, text: `,\n${indent}${rewrite}` };
}

function nthLineStart(text: string, line: number): number | undefined {
  let at = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return undefined;
    at = next + 1;
  }
  return at;
}
