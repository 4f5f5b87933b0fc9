const parts = (version: string): number[] => version.replace(/^v/, '').split('.').map((part) => Number.parseInt(part, 10) || 0);

/**
 * The one line said at start when the running Node is older than `engines` allows (only the
 * `>=X[.Y[.Z]]` form the package uses is read; any other range says nothing rather than guess).
 */
export function olderNodeLine(running: string, engines: string | undefined): string | undefined {
  const floor = engines?.trim().match(/^>=\s*v?(\d+(?:\.\d+){0,2})$/)?.[1];
  if (floor === undefined) return undefined;
  const have = parts(running);
  const need = parts(floor);
  for (let i = 0; i < 3; i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a > b) return undefined;
    if (a < b) {
      return `teams-migration-audit: note: Node ${running.replace(/^v?/, 'v')} is older than this tool supports (node ${engines!.trim()}); it may fail in ways no test covers, so use Node ${floor} or later\n`;
    }
  }
  return undefined;
}
