import AjvModule from 'ajv';
import { GatewayError } from '../errors/gateway-error.js';

const Ajv = AjvModule.default ?? AjvModule;

export type SchemaValidator = (value: unknown) => string | undefined;

/** Compiles a client's JSON schema; an invalid schema is a 422 naming `param`. Validation returns the first problem. */
export function compileClientSchema(schema: Record<string, unknown>, param: string): SchemaValidator {
  const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false });
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw new GatewayError(422, 'invalid_schema', `'${param}' is not a valid JSON schema: ${(error as Error).message}`, { param });
  }
  return (value) => {
    if (validate(value)) return undefined;
    const issue = validate.errors?.[0];
    return issue ? `${issue.instancePath || '(root)'} ${issue.message ?? 'is invalid'}` : 'does not match the schema';
  };
}
