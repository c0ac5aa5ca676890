import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { GatewayError } from '../errors/gateway-error.js';
import { checkClientSchemaSize, type ClientSchemaSizeLimits } from './check-client-schema-size.js';
import type { SchemaJob, SchemaJobResult } from './client-schema-thread.js';

export interface ClientSchemaLimits extends ClientSchemaSizeLimits {
  /** Longest one compilation or validation may run on its thread before it is stopped (422). */
  jobTimeoutMs: number;
}

/** Checks a value against a client's schema: the first problem, or undefined when it satisfies it. */
export type SchemaValidator = (value: unknown) => Promise<string | undefined>;

/** Idle threads stop after this long, so a gateway that checked one schema does not keep their memory. */
const IDLE_MS = 30_000;
/** Heap of one thread: a schema within the limits compiles in a few tens of MiB. */
const THREAD_MEMORY_MB = 256;

/** The thread program next to this module: the `.ts` source under the tests, the built `.js` otherwise. */
function threadProgram(): string {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./client-schema-thread${extension}`, import.meta.url));
}

/**
 * Compiles and evaluates clients' JSON schemas (OCR's `schema`, Mistral's annotation formats) off the
 * event loop: sizes are checked first, then a small pool of threads compiles with Ajv (patterns on
 * RE2, linear time) and validates, each job within a time budget and a heap limit. Compiling takes
 * Ajv up to seconds for a few thousand properties, and a schema's `$ref`s and `allOf`s can make one
 * validation exponential in the value's depth: neither may stall the requests of other keys.
 */
export class ClientSchemaChecker {
  private readonly pool: Piscina<SchemaJob, SchemaJobResult>;

  constructor(private readonly limits: ClientSchemaLimits) {
    this.pool = new Piscina({
      filename: threadProgram(),
      minThreads: 0,
      maxThreads: Math.min(2, availableParallelism()),
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_MEMORY_MB, maxYoungGenerationSizeMb: 16 },
    });
  }

  /**
   * The validator of a client's schema; a schema past the limits, invalid, or with a pattern RE2
   * cannot run is a 422 naming `param`. Its checks run on the pool too, and stop with the request.
   */
  async compile(schema: Record<string, unknown>, param: string, signal: AbortSignal): Promise<SchemaValidator> {
    checkClientSchemaSize(schema, param, this.limits);
    const text = JSON.stringify(schema);
    await this.run({ schema: text }, param, 'Compiling', signal);
    return async (value) => {
      const result = await this.run({ schema: text, value }, param, 'Checking the data against', signal);
      return 'problem' in result ? result.problem : undefined;
    };
  }

  /** Stops every thread; jobs still running fail. */
  close(): Promise<void> {
    return this.pool.destroy();
  }

  private async run(job: SchemaJob, param: string, doing: string, signal: AbortSignal): Promise<SchemaJobResult> {
    signal.throwIfAborted();
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), this.limits.jobTimeoutMs);
    const stop = (): void => budget.abort();
    signal.addEventListener('abort', stop, { once: true });
    let result: SchemaJobResult;
    try {
      result = await this.pool.run(job, { signal: budget.signal });
    } catch (error) {
      signal.throwIfAborted();
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      if (!budget.signal.aborted && !outOfMemory) throw error;
      const limit = outOfMemory
        ? `its ${THREAD_MEMORY_MB} MiB memory`
        : `its ${this.limits.jobTimeoutMs} ms budget (server.schema_job_timeout_ms)`;
      throw new GatewayError(
        422,
        'schema_too_complex',
        `${doing} the JSON schema in '${param}' needed more than ${limit} and was stopped; simplify the schema (fewer $ref, allOf and anyOf levels).`,
        { param },
      );
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
    if ('refused' in result) {
      const { code, message } = result.refused;
      const what =
        code === 'unsupported_pattern' ? 'has a pattern the gateway does not run' : 'is not a valid JSON schema';
      throw new GatewayError(
        422,
        code === 'unsupported_pattern' ? 'unsupported_pattern' : 'invalid_schema',
        `'${param}' ${what}: ${message}`,
        { param },
      );
    }
    return result;
  }
}
