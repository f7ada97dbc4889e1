import { AppError, invalidQueryParams } from './errors.js';

/**
 * Runs one parser per query field and collects every invalid_query_params message, so a
 * client learns all that is wrong with its query in one answer (like validateBody does for
 * bodies). Other errors pass through.
 */
export function parseQueryFields<T extends object>(parsers: { [K in keyof T]: () => T[K] }): T {
  const out = {} as T;
  const problems: string[] = [];
  for (const key of Object.keys(parsers) as Array<keyof T>) {
    try {
      out[key] = parsers[key]();
    } catch (error) {
      if (!(error instanceof AppError) || error.key !== 'invalid_query_params') throw error;
      problems.push(error.details);
    }
  }
  if (problems.length > 0) throw invalidQueryParams(problems.join('; '));
  return out;
}
