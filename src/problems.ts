import type { z } from 'zod';

/*
 * Input refused at a boundary (DESIGN.md "Security rules": a bad frame, message or config value gets a
 * clear error), worded the same everywhere. A leaf: the config, the device drivers and manifests (which
 * the config reads), the MQTT commands, the display and the scenarios all use it, and it uses none of them.
 */

/** A config the controller refuses: one line per problem, each naming its key and what is wrong. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A longer message or key is mostly the (hostile) input it quotes: it is cut, saying how long it was. */
const MAX_MESSAGE = 300;
const MAX_KEY = 40;
/** Past this many problems the rest are counted, not listed: a reason must fit a log line. */
const MAX_ISSUES = 10;

/** `text`, or its first `max` characters and how long it was. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/**
 * Zod issues as `where.key.path: message`, joined by `separator`; a bad record key says what its own issues
 * say. Bounded whatever the input: long messages and keys are cut, and past MAX_ISSUES the rest are counted.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], where = '', separator = '\n'): string {
  const described = issues.slice(0, MAX_ISSUES).map((issue) => {
    const message =
      issue.code === 'invalid_key'
        ? issue.issues.map((keyIssue) => keyIssue.message).join('; ')
        : issue.message;
    const key = [where, ...issue.path.map((part) => cut(String(part), MAX_KEY))].filter(Boolean).join('.');
    return key ? `${key}: ${cut(message, MAX_MESSAGE)}` : cut(message, MAX_MESSAGE);
  });
  if (issues.length > MAX_ISSUES) described.push(`and ${issues.length - MAX_ISSUES} more problems`);
  return described.join(separator);
}

/** Parses `input` with `schema`, or throws a ConfigError naming every bad key under `where`. */
export function parseSection<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ConfigError(describeIssues(result.error.issues, where));
}
