import SwaggerParser from '@apidevtools/swagger-parser';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Json, type TestGateway } from '../support/start-gateway.js';

let gateway: TestGateway;
let document: Json;
let folder: string;
const run = promisify(execFile);

beforeAll(async () => {
  gateway = await startGateway();
  document = await (await gateway.request('/openapi.json')).json();
  folder = mkdtempSync(join(tmpdir(), 'switchyard-openapi-'));
  writeFileSync(join(folder, 'openapi.json'), JSON.stringify(document));
});
afterAll(async () => {
  await gateway.close();
  rmSync(folder, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

describe('the OpenAPI document, as tools read it', () => {
  it('every operation has a unique operationId and a summary; the alias, servers and multipart bodies are there', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      operations().every(({ operation }) => typeof operation.summary === 'string' && operation.summary.length > 0),
    ).toBe(true);
    expect(document.paths['/chat/completions'].post).toBeDefined();
    expect(document.paths['/v1/responses'].post.operationId).toBe('createResponse');
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    for (const path of ['/v1/files', '/transcript']) {
      expect(document.paths[path].post.requestBody.content['multipart/form-data'].schema.properties.file).toEqual({
        type: 'string',
        format: 'binary',
      });
    }
    expect(document.paths['/v1/ocr'].post.requestBody.content['multipart/form-data']).toBeDefined();
  });

  it('@redocly/cli lint with the recommended rules reports no errors', async () => {
    const cli = join(process.cwd(), 'node_modules', '.bin', 'redocly');
    const { stdout } = await run(
      cli,
      ['lint', join(folder, 'openapi.json'), '--extends=recommended', '--format=json'],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout) as {
      totals: { errors: number };
      problems: { ruleId: string; message: string; severity: string }[];
    };
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('@apidevtools/swagger-parser validates it', async () => {
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it('openapi-typescript generates types that compile', async () => {
    const source = astToString(await openapiTS(structuredClone(document)));
    const file = join(folder, 'switchyard-api.ts');
    writeFileSync(file, `${source}\nexport type ResponsesBody = paths['/v1/responses']['post']['requestBody'];\n`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      skipLibCheck: true,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  }, 60_000);
});
