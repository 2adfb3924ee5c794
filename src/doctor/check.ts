/**
 * One thing `croupier doctor` checks, said in plain words: what is wrong and what to do about it, for the
 * engineer at the table rather than for a developer.
 */
export interface Check {
  name: string;
  ok: boolean;
  /** It keeps the table from playing: `croupier doctor` exits 1. */
  blocking: boolean;
  /** What is wrong ('' when ok). */
  problem: string;
  /** What to do about it ('' when ok). */
  advice: string;
  /** What was found, when ok. */
  found?: string;
}

export const passed = (name: string, found?: string): Check => ({
  name,
  ok: true,
  blocking: false,
  problem: '',
  advice: '',
  ...(found !== undefined && { found }),
});

/** A problem that keeps the table from playing. */
export const blocks = (name: string, problem: string, advice: string): Check => ({
  name,
  ok: false,
  blocking: true,
  problem,
  advice,
});

/** A problem, or a check that could not be made, that lets the table play. */
export const warns = (name: string, problem: string, advice: string): Check => ({
  name,
  ok: false,
  blocking: false,
  problem,
  advice,
});

/** One line: ✓ passed, ✗ blocks play, ! worth a look. */
export function formatCheck(check: Check): string {
  if (check.ok) return `✓ ${check.name}${check.found ? `: ${check.found}` : ''}`;
  return `${check.blocking ? '✗' : '!'} ${check.name}: ${check.problem} → ${check.advice}`;
}

/** The errno code (`ENOENT`, `EACCES`…) of a failed system call, if it has one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
