import AjvModule, { type ValidateFunction } from 'ajv';
import { RE2 } from 're2-wasm';

// A work-pool thread's program (client-schema-checker.ts): it imports packages only, so Node loads it
// as it is, from the TypeScript source under the tests (type stripping) and from the build.

const Ajv = AjvModule.default ?? AjvModule;

/** One job: compile `schema` (JSON text), and check `value` against it when one is given. */
export interface SchemaJob {
  schema: string;
  value?: unknown;
}

/** A problem with the value (undefined: it satisfies the schema), or why the schema was refused. */
export type SchemaJobResult =
  { problem?: string } | { refused: { code: 'unsupported_pattern' | 'invalid_schema'; message: string } };

/** A `pattern` (or patternProperties, propertyNames) RE2 cannot run: a backreference, a lookaround. */
class UnsupportedPattern extends Error {}

/**
 * Client patterns run on RE2, whose matching time is linear in the text (`^(a+)+$` on 32 a's and a `!`
 * took V8 25 s); what RE2 cannot compile is refused rather than handed to a backtracking engine.
 */
const linearRegExp = Object.assign(
  (pattern: string): RE2 => {
    try {
      return new RE2(pattern, 'u');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const prefix = `Invalid regular expression: /${pattern}/u: `;
      const reason = message.startsWith(prefix) ? message.slice(prefix.length) : message;
      throw new UnsupportedPattern(
        `the pattern ${JSON.stringify(pattern)} cannot be run in linear time (${reason}); backreferences and lookarounds are not supported`,
      );
    }
  },
  { code: 'new RE2' },
);

/**
 * Compiles a client's JSON schema with its patterns on RE2. allErrors keeps the generated code flat:
 * without it each property nests one level deeper, and a few thousand properties overflow the stack.
 */
export function compileClientSchemaHere(schema: unknown): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, code: { regExp: linearRegExp } });
  return ajv.compile(schema as Record<string, unknown>);
}

/** The first problem Ajv reported, as one line. */
export function firstProblem(validate: ValidateFunction): string {
  const issue = validate.errors?.[0];
  return issue ? `${issue.instancePath || '(root)'} ${issue.message ?? 'is invalid'}` : 'does not match the schema';
}

const CACHED_SCHEMAS = 32;

/**
 * The thread's job: a schema compiled (or taken from the thread's own compiled schemas, by text,
 * oldest first: a request checks its schema two or three times, and clients reuse theirs), then the
 * value checked against it.
 */
function schemaJobRunner(): (job: SchemaJob) => SchemaJobResult {
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (schema: string): ValidateFunction => {
    const found = compiled.get(schema);
    if (found) return found;
    const validate = compileClientSchemaHere(JSON.parse(schema));
    if (compiled.size >= CACHED_SCHEMAS) compiled.delete(compiled.keys().next().value!);
    compiled.set(schema, validate);
    return validate;
  };
  return (job) => {
    let validate: ValidateFunction;
    try {
      validate = validatorFor(job.schema);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        refused: { code: error instanceof UnsupportedPattern ? 'unsupported_pattern' : 'invalid_schema', message },
      };
    }
    if (!('value' in job) || validate(job.value)) return {};
    return { problem: firstProblem(validate) };
  };
}

export default schemaJobRunner();
