export const STAMP: string;
export function needsBuild(root: string): boolean;
