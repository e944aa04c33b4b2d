import v8 from 'node:v8';
import { CatalogApiError } from '../http/catalog-api.error.js';

// V8's linear-time RegExp engine (flag `l`): matching time grows linearly with the input, so a
// pattern such as ^(a+)+$ cannot stall the server. Set once, when this module loads.
v8.setFlagsFromString('--enable-experimental-regexp-engine');

/** The linear-time engine's flag (a constant, so no tool turns the call into an invalid literal). */
const LINEAR: string = 'l';
assertLinearEngineAvailable();

/** Longest `$regex` pattern accepted (characters). */
export const MAX_REGEX_LENGTH = 1_000;

export const LINEAR_REGEX_EXPECTED = 'a regular expression without backreferences or lookaround';

/**
 * Compiles a `$regex` operand with the linear-time engine: case-sensitive, no flags. Refuses
 * (invalid_query_structure at `field`) a pattern that is too long, invalid, or that the engine
 * cannot run in linear time (backreferences, lookahead, very large repetition counts).
 */
export function compileLinearRegex(pattern: string, field: string): RegExp {
  if (pattern.length > MAX_REGEX_LENGTH) {
    throw CatalogApiError.queryStructure(
      field,
      `a regular expression of at most ${MAX_REGEX_LENGTH} characters`,
      pattern,
    );
  }
  try {
    return new RegExp(pattern, LINEAR);
  } catch (error) {
    if (error instanceof SyntaxError && error.message.includes('linear time')) {
      throw CatalogApiError.queryStructure(field, LINEAR_REGEX_EXPECTED, pattern);
    }
    throw CatalogApiError.queryStructure(field, 'a valid regular expression', pattern);
  }
}

function assertLinearEngineAvailable(): void {
  try {
    new RegExp('a', LINEAR);
  } catch {
    throw new Error('The linear-time RegExp engine is not available in this Node.js runtime.');
  }
}
