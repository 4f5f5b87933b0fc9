import type { Report } from '../model/finding.js';
import { REDACTED } from '../sources/redact.js';
import { BULK_LIMIT, bulkName, type RelationMove } from './data-migration.js';
import type { FixFile, UnresolvedFix } from './fix-kit.js';
import type { PatchPlace } from './repo-patch.js';
import { plural } from '../plural.js';
import { cell } from '../report/markdown.js';
import { terminalSafe as oneLine } from '../terminal-text.js';

/**
 * Text of the org or a repository (its name, identifiers, locations, folder names, team values) as
 * summary.md writes it: one line, Markdown punctuation backslash-escaped and `<`, `>`, `&` as
 * entities, so none of it opens a link, an image, a tag or a comment (`<!--` would hide the rest).
 * Outside code spans, where backslashes would show.
 */
const text = (value: string) => cell(oneLine(value));

/** A kit path: in a code span when it is the kit's own safe characters, else escaped as text (a folder's name is in `repo-<name>.patch`). */
const kitPath = (path: string) => (/^[A-Za-z0-9@_.+=/-]+$/.test(path) ? `\`${path}\`` : text(path));

/** The folder's README and the data-migration folder's README: what each file is, the commands, the order. */
export function fixReadme(files: readonly FixFile[], moves: readonly RelationMove[], unresolved: readonly UnresolvedFix[], report: Report, applyAt: readonly PatchPlace[] = []): FixFile[] {
  const count = (kind: FixFile['kind']) => files.filter((file) => file.kind === kind).length;
  const patches = files.filter((file) => file.kind === 'repo-patch');
  const lines = [
    `# Fix kit for ${text(report.organization.name)}`,
    '',
    'Written by teams-migration-audit, which only reads the service: nothing here has been sent anywhere.',
    'Apply the files yourself, in this order:',
    '',
    patches.length === 0
      ? '1. Before the migration: nothing to check in the repositories (no repository patch was written).'
      : `1. Before the migration: read ${patches.map((file) => kitPath(file.path)).join(', ')} and check that it applies (the \`--check\` half of the commands in step 5).`,
    '2. Run the migration (`POST /v1/blueprints/system/users-and-teams-as-blueprints`).',
    `3. After it has finished, paste each corrected resource from \`org/\` (${plural(count('resource'), 'file')}) into the builder's JSON editor of that resource (\`….permissions.json\`: its permissions editor). Each body is the resource as the migration leaves it, with the fixes in: pasted before the migration it would set ownership too early.`,
    moves.length > 0 ? '4. Move the data of blueprints that keep teams only in a relation to `_team`: `data-migration/README.md`.' : '4. No blueprint keeps its teams only in a relation to `_team`: no data to move.',
    ...applySteps(patches, applyAt),
    '6. Run the audit again: `predicted-org.json` is the org it expects to find, and analysing it gives no finding that breaks.',
    '',
    '## Files',
    '',
    ...files.map((file) => `- ${kitPath(file.path)} (${file.kind}): resolves ${plural(file.findings.length, 'finding')}`),
    moves.length > 0 ? '- `README.md`, `data-migration/README.md`: this guide' : '- `README.md`: this guide',
    '',
  ];
  if (files.some((file) => file.kind === 'repo-patch')) {
    lines.push(
      '## Terraform and Pulumi notes',
      '',
      '- `ownership` needs provider port-labs/port-labs ≥ 2.1.4 (Pulumi ≥ 2.1.4); `port_system_blueprint` needs ≥ 2.2.0: in each Terraform configuration it changes, the patch raises the provider\'s `version` constraint where it is lower (`~> 2.1.0` becomes `~> 2.2`), and `required_version` where it keeps out the `import` and `removed` blocks; a constraint it cannot read is listed under "Not in the kit" with its line. A Pulumi package version is not changed: require `@port-labs/port` / `port_pulumi` ≥ 2.2.0 yourself where the patch adds a `SystemBlueprint`.',
      '- `_user` and `_team` become `port_system_blueprint` with an `import` block (Terraform ≥ 1.5) and a `removed` block with `destroy = false` (Terraform ≥ 1.7), so the old address is forgotten, never destroyed. On older Terraform: `terraform state rm port_blueprint.<name>` and `terraform import port_system_blueprint.<name> <identifier>` instead.',
      '- Pulumi `SystemBlueprint` is adopted with the `import` resource option (TypeScript: added by the patch; Python: add `opts=pulumi.ResourceOptions(import_="<identifier>")` yourself).',
      '',
    );
  }
  // The org was read with its secrets cut out: a body pasted as it is would overwrite them.
  const redacted = files.filter((file) => (file.kind === 'resource' || file.kind === 'bulk-upsert') && file.content.includes(REDACTED));
  if (redacted.length > 0) {
    lines.push(
      '## Before you paste: secrets were cut',
      '',
      `These bodies hold \`${REDACTED}\` where the org had a secret (a header, a token): put the real value back before saving, or the builder stores the marker.`,
      '',
      ...redacted.map((file) => `- ${kitPath(file.path)}`),
      '',
    );
  }
  if (unresolved.length > 0) {
    // Named as the page and the CI log name them (resource and location), the id last to search the report.
    const byId = new Map(report.findings.map((f) => [f.id, f]));
    const named = (id: string) => {
      const f = byId.get(id);
      if (!f) return `finding \`${id}\``;
      // One line each: org and file text keep their line breaks as escapes.
      return f.resource.type === 'file' ? `${text(f.location)} (finding ${id})` : `${f.resource.type} ${text(f.resource.identifier)}, ${text(f.location)} (finding ${id})`;
    };
    lines.push('## Not in the kit (a person must decide, or something is missing)', '', ...unresolved.map((u) => `- ${named(u.id)}: needs ${text(u.missing)}`), '');
  }
  const readme: FixFile = { path: 'README.md', kind: 'readme', findings: [], content: lines.join('\n') };
  return moves.length > 0 ? [readme, dataMigrationReadme(moves)] : [readme];
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * Step 5: one `git apply` per patch, run from the top of its repository's work tree (where git reads
 * the patch's paths, src/fix/apply-root.ts) with KIT naming this folder. No path of the machine that
 * ran the audit: the kit is often read from a CI artifact, unpacked elsewhere.
 */
function applySteps(patches: readonly FixFile[], applyAt: readonly PatchPlace[]): string[] {
  if (patches.length === 0) return ['5. No repository patch: nothing to apply in the repositories.'];
  // Where each patch is applied (src/fix/repo-patch.ts).
  const places = new Map(applyAt.map((place) => [place.path, place]));
  const commands = patches.flatMap((file) => {
    const place = places.get(file.path);
    const at = `"$KIT"/${shellQuote(oneLine(file.path))}`;
    const comment = place === undefined ? '# from the directory the audit ran in' : `# in ${oneLine(place.repository)}, from the top of its work tree (${oneLine(place.rootFromHere)} from where the audit ran)`;
    return [comment, `git apply --check ${at} && git apply ${at}`];
  });
  return [
    `5. Apply the repository patch${patches.length > 1 ? 'es, one per repository' : ''} (or run the audit again with \`--fix\`), then \`terraform plan\` / \`pulumi preview\` before applying. Run each command from the top of its repository's git work tree (where git reads the paths), with \`KIT\` set to this folder: where the audit wrote it, or where you unpacked it from a CI artifact.`,
    '',
    '```sh',
    'KIT=path/to/this/folder',
    ...commands,
    '```',
    '',
  ];
}

function dataMigrationReadme(moves: readonly RelationMove[]): FixFile {
  const requests = moves.reduce((sum, move) => sum + move.payloads.length, 0);
  const lines = [
    '# Moving teams out of relations to `_team`',
    '',
    'These blueprints keep their teams only in a relation to `_team`: the migration creates no ownership for them.',
    'Run this after the migration: the relations hold `_team` identifiers, which `$team` takes only from then on.',
    'For each blueprint, in the order of the table below: give it Direct ownership, then move the data, by one of two ways.',
    '',
    "**In the builder** (no API calls): open the blueprint, set ownership to Direct, choose `Migrate data`, and paste the mapping from `data-migration/<blueprint>.json`.",
    '',
    "**By the migrations API** (the builder's operation as a request; this tool never sends it): `POST /v1/migrations` with the body in `data-migration/api/<blueprint>.json`, one per blueprint; `GET /v1/migrations?blueprint=<blueprint>&status=COMPLETED` then tells whether it ran, and the next audit reads it. From this folder, with `$PORT_TOKEN` and `$PORT_API` as below:",
    '',
    '```sh',
    ...moves.map(
      (move) =>
        `curl -sS --fail-with-body -X POST "$PORT_API/v1/migrations" -H "Authorization: Bearer $PORT_TOKEN" -H 'Content-Type: application/json' --data @api/${move.name}.json`,
    ),
    '```',
    '',
    `**By API**, for admins who script it: each file in \`bulk/\` holds at most ${BULK_LIMIT} entities, each with its team taken from the relation, and its title and relations as they were read.`,
    "The API reference documents only `upsert=true` for this endpoint, and does not say whether an upsert keeps the fields a payload leaves out. The entities' properties were not read (the snapshot holds identifier, title, team and relations only), so they are not in these files: if an upsert replaces the entity, its properties would be lost. So prefer the builder's `Migrate data` above; use these files only after checking on one entity that its properties survive, and right after the audit (a title or relation changed since would be written back).",
    "Run from this folder, with an API token in `$PORT_TOKEN` and the API base URL in `$PORT_API` (for example https://api.getport.io):",
    '',
    '```sh',
    ...moves.flatMap((move) =>
      move.payloads.map(
        (_, index) =>
          `curl -sS --fail-with-body -X POST "$PORT_API/v1/blueprints/${encodeURIComponent(move.blueprint)}/entities/bulk?upsert=true" -H "Authorization: Bearer $PORT_TOKEN" -H 'Content-Type: application/json' --data @bulk/${bulkName(move.name, index)}`,
      ),
    ),
    '```',
    '',
    `Request budget: ${plural(requests, 'request')} in all, one per file (a bulk request counts as one against the rate limit), sent once: ${plural(requests, 'request')} in one 5-minute window when the org's \`x-ratelimit-limit\` allows that many, else spread over as many windows as it takes. On a 429, wait the seconds in \`x-ratelimit-reset\` (60 when absent) and send the same file again: an upsert is safe to repeat.`,
    '',
    '| blueprint | relations | entities | files |',
    '|---|---|---|---|',
    ...moves.map((move) => `| ${text(move.blueprint)} | ${text(move.relations.join(', '))} | ${move.entitiesRead ? move.payloads.reduce((sum, p) => sum + p.entities.length, 0) : 'not read'} | ${move.payloads.length} |`),
    '',
    ...unreadNote(moves),
  ];
  return { path: 'data-migration/README.md', kind: 'readme', findings: [], content: lines.join('\n') };
}

/** No bulk file is no proof of no entity: say which blueprints' entities this run never held. */
function unreadNote(moves: readonly RelationMove[]): string[] {
  const unread = moves.filter((move) => !move.entitiesRead).map((move) => text(move.blueprint));
  if (unread.length === 0) return [];
  return [
    `Entities of ${unread.join(', ')} were not read in this run, so there are no bulk files for them: use the builder's \`Migrate data\` with the mapping above, or analyse a snapshot file that holds their entities to get the bulk files.`,
    '',
  ];
}
