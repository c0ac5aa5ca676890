import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../../gateway/src/api/console/console-schemas';
import { requestsToCsv } from './request-view';

const entry: RequestLogEntry = {
  id: 'req_1', time: Date.UTC(2026, 10, 28, 12), method: 'POST', path: '/v1/chat/completions', status: 200, latency_ms: 12,
  key_prefix: 'sk-sy-ab', model: '=cmd|" /C calc"!A0', prompt_tokens: 3, completion_tokens: 4, cost: 0.5, client: '@evil',
};

describe('requestsToCsv', () => {
  it('writes one row per request with formulas in client-supplied values defused', () => {
    const [header, row] = requestsToCsv([entry]).split('\r\n');
    expect(header).toBe('id,time,method,path,status,model,key_prefix,client,latency_ms,prompt_tokens,completion_tokens,cost');
    expect(row).toBe(`req_1,2026-11-28T12:00:00.000Z,POST,/v1/chat/completions,200,"'=cmd|"" /C calc""!A0",sk-sy-ab,'@evil,12,3,4,0.5`);
  });
});
