import type { z } from 'zod';

/** A config the controller refuses: one line per problem, each naming its key and what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Zod issues as `where.key.path: message`, joined by `separator`; a bad record key says what its own issues say. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], where = '', separator = '\n'): string {
  return issues
    .map((issue) => {
      const message =
        issue.code === 'invalid_key'
          ? issue.issues.map((keyIssue) => keyIssue.message).join('; ')
          : issue.message;
      const key = [where, ...issue.path.map(String)].filter(Boolean).join('.');
      return key ? `${key}: ${message}` : message;
    })
    .join(separator);
}

/** Parses `input` with `schema`, or throws a ConfigError naming every bad key under `where`. */
export function parseSection<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ConfigError(describeIssues(result.error.issues, where));
}
