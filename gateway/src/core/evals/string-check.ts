import type { StringCheckGrader } from '../../wire/eval-schemas.js';

/**
 * OpenAI's string_check grader: `eq` and `ne` compare exactly, `like` is true when the input
 * contains the reference, `ilike` the same ignoring case. Score 1 when true, else 0.
 */
export function stringCheck(operation: StringCheckGrader['operation'], input: string, reference: string): boolean {
  switch (operation) {
    case 'eq':
      return input === reference;
    case 'ne':
      return input !== reference;
    case 'like':
      return input.includes(reference);
    case 'ilike':
      return input.toLowerCase().includes(reference.toLowerCase());
  }
}
