import { writeFileAtomic } from './output/output-set.js';
import { InputError, UsageError } from './errors.js';
import { ensureWritableFile } from './output/output-path.js';
import { NO_SOURCE_HINT, resolveOrgSource, type SourceFlags, type SourceIo } from './sources/resolve-source.js';
import { renderSnapshot } from './sources/write-snapshot.js';
import { terminalSafe } from './terminal-text.js';
import { STDOUT } from './report/write-reports.js';
import { credentialsFromEnv, redactCredentials } from './secrets/credentials.js';
import { plural } from './plural.js';

export interface SnapshotFlags extends SourceFlags {
  out: string;
}

/**
 * `snapshot --out FILE`: record the org once, analyze it offline as often as needed. `recordedAt` is the time of this
 * recording (docs/formats.md): report.run.dataReadAt of every analysis of it.
 */
export async function runSnapshot(flags: SnapshotFlags, io: SourceIo, recordedAt: string, stdout: (text: string) => void): Promise<{ incomplete: number }> {
  // `--out -`: the snapshot is the whole of stdout, for a pipe.
  const toStdout = flags.out === STDOUT;
  if (!toStdout) await ensureWritableFile(flags.out, '--out');
  const resolved = await resolveOrgSource(flags, io);
  if (!resolved) throw new UsageError(NO_SOURCE_HINT);
  const { description, notes, credentials } = resolved;
  // A live read is recorded now; a snapshot rewritten in stable order keeps its own time, or none.
  const snapshot = flags.snapshot !== undefined ? resolved.snapshot : { ...resolved.snapshot, recordedAt };
  const text = renderSnapshot(redactCredentials(snapshot, [...credentialsFromEnv(io.env), ...(credentials ?? [])]));
  try {
    if (toStdout) stdout(text);
    else await writeFileAtomic(flags.out, text);
  } catch (error) {
    throw new InputError(`${flags.out}: cannot write the snapshot: ${(error as Error).message}`, { cause: error });
  }
  const incomplete = snapshot.incomplete?.length ?? 0;
  if (!flags.quiet) {
    const note = incomplete > 0 ? `; INCOMPLETE: ${plural(incomplete, 'item')} could not be read` : '';
    io.stderr([...notes.map((line) => `note: ${line}`), `wrote ${toStdout ? 'the snapshot to stdout' : flags.out} from ${description}${note}`].map(terminalSafe).join('\n') + '\n');
  }
  return { incomplete };
}
