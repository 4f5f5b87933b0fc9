/**
 * Where a repository finding is: `path:line`, as the repository scan writes its location (the line
 * 1-based). A file name may hold a colon itself, so only a numeric tail after the last one is the
 * line; and a newline, so the path is any text.
 */
export function fileLocation(location: string): { path: string; line: number } | undefined {
  const match = /^([\s\S]*):(\d+)$/.exec(location);
  return match ? { path: match[1]!, line: Number(match[2]) } : undefined;
}

/** The same where a path is always shown: a location without a numeric line is all path (line 0). */
export function splitFileLocation(location: string): { path: string; line: number } {
  return fileLocation(location) ?? { path: location, line: 0 };
}
