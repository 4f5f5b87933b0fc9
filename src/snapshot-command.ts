import { writeFileAtomic } from './output/output-set.js';
import { InputError } from './errors.js';
import { ensureWritableFile } from './output/output-path.js';
import { resolveSource, type SourceFlags, type SourceIo } from './sources/resolve-source.js';
import { renderSnapshot } from './sources/write-snapshot.js';
import { terminalSafe } from './terminal-text.js';
import { credentialsFromEnv, redactCredentials } from './report/redact-credentials.js';

export interface SnapshotFlags extends SourceFlags {
  out: string;
}

/** `snapshot --out FILE`: record the org once, analyze it offline as often as needed. */
export async function runSnapshot(flags: SnapshotFlags, io: SourceIo): Promise<{ incomplete: number }> {
  await ensureWritableFile(flags.out, '--out');
  const { snapshot, description, notes, credentials } = await resolveSource(flags, io);
  try {
    await writeFileAtomic(flags.out, renderSnapshot(redactCredentials(snapshot, [...credentialsFromEnv(io.env), ...(credentials ?? [])])));
  } catch (error) {
    throw new InputError(`${flags.out}: cannot write the snapshot: ${(error as Error).message}`, { cause: error });
  }
  const incomplete = snapshot.incomplete?.length ?? 0;
  if (!flags.quiet) {
    const note = incomplete > 0 ? `; INCOMPLETE: ${incomplete} item(s) could not be read` : '';
    io.stderr([...notes.map((line) => `note: ${line}`), `wrote ${flags.out} from ${description}${note}`].map(terminalSafe).join('\n') + '\n');
  }
  return { incomplete };
}
