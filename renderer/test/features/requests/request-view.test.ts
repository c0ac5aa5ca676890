import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../gateway/src/wire/request-log-entry-schema';
import { requestToCurl, requestsToCsv } from '../../../src/features/requests/request-view';

const entry: RequestLogEntry = {
  id: 'req_1',
  time: Date.UTC(2026, 10, 28, 12),
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  latency_ms: 12,
  key_prefix: 'sk-sy-ab',
  model: '=cmd|" /C calc"!A0',
  prompt_tokens: 3,
  completion_tokens: 4,
  cost: 0.5,
  client: '@evil',
};

describe('requestsToCsv', () => {
  it('writes one row per request with formulas in client-supplied values defused', () => {
    const failed = {
      ...entry,
      id: 'req_2',
      status: 404,
      error_code: 'model_not_found',
      error_message: '=HYPERLINK("x") is not a model',
    };
    const [header, row, failedRow] = requestsToCsv([entry, failed]).split('\r\n');
    expect(header).toBe(
      'id,time,method,path,status,model,key_prefix,client,latency_ms,ttft_ms,prompt_tokens,completion_tokens,cost,error_code,error_message,trace_id',
    );
    expect(row).toBe(
      `req_1,2026-11-28T12:00:00.000Z,POST,/v1/chat/completions,200,"'=cmd|"" /C calc""!A0",sk-sy-ab,'@evil,12,,3,4,0.5,,,`,
    );
    expect(failedRow).toBe(
      `req_2,2026-11-28T12:00:00.000Z,POST,/v1/chat/completions,404,"'=cmd|"" /C calc""!A0",sk-sy-ab,'@evil,12,,3,4,0.5,model_not_found,"'=HYPERLINK(""x"") is not a model",`,
    );
  });
});

describe('requestToCurl', () => {
  /** Runs the command in bash with a stand-in for curl that prints its arguments and what it read. */
  const run = (command: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'curl-'));
    try {
      // A script file: the command itself can be longer than one argument to bash may be.
      writeFileSync(
        join(dir, 'run.sh'),
        `curl() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({args:process.argv.slice(1),stdin:s})))' -- "$@"; }\n${command}\n`,
      );
      const output = execFileSync('bash', [join(dir, 'run.sh')], {
        env: { PATH: process.env.PATH ?? '', SWITCHYARD_API_KEY: 'k' },
        input: '',
      });
      return JSON.parse(output.toString()) as { args: string[]; stdin: string };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('passes a short body as an argument', () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: "it's $HOME" }] });
    const sent = run(
      requestToCurl(
        { ...entry, request_headers: { 'content-type': 'application/json' }, request_body: body },
        'http://h',
      ),
    );
    expect(sent.args).toEqual([
      '-X',
      'POST',
      'http://h/v1/chat/completions',
      '-H',
      'Authorization: Bearer k',
      '-H',
      'Content-Type: application/json',
      '-d',
      body,
    ]);
  });

  it('sends a body too long for one argument on standard input, word for word', () => {
    const body = JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: `a_'$(x)\`\\${'x'.repeat(200_000)}` }],
    });
    const command = requestToCurl(
      { ...entry, request_headers: { 'content-type': 'application/json' }, request_body: body },
      'http://h',
    );
    const sent = run(command);
    expect(sent.args.slice(-2)).toEqual(['--data-binary', '@-']);
    expect(sent.stdin).toBe(`${body}\n`);
  });
});
