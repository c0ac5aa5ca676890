import { describe, expect, it } from 'vitest';
import { buildCodeSnippets, shortenDataUrls, toPythonLiteral } from './code-snippets';

const chat = {
  baseUrl: 'http://127.0.0.1:8080',
  path: '/v1/chat/completions' as const,
  body: {
    model: 'svc-large-3-2512',
    messages: [
      { role: 'system', content: "It's a test" },
      { role: 'user', content: 'Say "hi"\nthen stop' },
    ],
    temperature: 0.7,
    seed: null,
    stream: true,
    stream_options: { include_usage: true },
    document: 'extension-field',
  },
};

/** Undoes the shell quoting of the -d argument, as a POSIX shell would. */
function curlPayload(curl: string): string {
  const quoted = curl.slice(curl.indexOf("-d '") + 3);
  return quoted.slice(1, -1).replace(/'\\''/g, "'");
}

describe('buildCodeSnippets', () => {
  const snippets = buildCodeSnippets(chat);

  it('cURL sends exactly the request body, quotes and newlines intact, to the right URL', () => {
    expect(snippets.curl).toContain('curl -N http://127.0.0.1:8080/v1/chat/completions');
    expect(snippets.curl).toContain('Authorization: Bearer $SWITCHYARD_API_KEY');
    expect(JSON.parse(curlPayload(snippets.curl))).toEqual(chat.body);
  });

  it('Python uses the openai SDK, Python literals, and extra_body for gateway extensions', () => {
    expect(snippets.python).toContain('client = OpenAI(base_url="http://127.0.0.1:8080/v1"');
    expect(snippets.python).toContain('client.chat.completions.create(');
    expect(snippets.python).toContain('stream=True,');
    expect(snippets.python).toContain('seed=None,');
    expect(snippets.python).toContain('"include_usage": True');
    expect(snippets.python).toMatch(/extra_body=\{\n\s+"document": "extension-field",/);
    expect(snippets.python).not.toMatch(/^\s+document=/m);
    expect(snippets.python).toContain('for chunk in response:');
  });

  it('JavaScript passes the whole body to the SDK and iterates the stream', () => {
    expect(snippets.javascript).toContain("baseURL: \"http://127.0.0.1:8080/v1\"");
    const literal = snippets.javascript.slice(snippets.javascript.indexOf('create(') + 7, snippets.javascript.indexOf('\n});') + 2);
    expect(JSON.parse(literal)).toEqual(chat.body);
    expect(snippets.javascript).toContain('for await (const chunk of response)');
  });

  it('non-streamed embeddings print vectors instead of iterating chunks', () => {
    const s = buildCodeSnippets({ baseUrl: 'http://h', path: '/v1/embeddings', body: { model: 'e', input: ['a', 'b'] } });
    expect(s.curl.startsWith('curl http://h/v1/embeddings')).toBe(true);
    expect(s.python).toContain('client.embeddings.create(');
    expect(s.python).toContain('for item in response.data:');
    expect(s.python).not.toContain('extra_body');
  });
});

describe('toPythonLiteral', () => {
  it('writes booleans, null, nested lists and escaped strings as Python', () => {
    expect(toPythonLiteral({ a: [true, false, null], b: 'q"\n' })).toBe('{\n    "a": [\n        True,\n        False,\n        None,\n    ],\n    "b": "q\\"\\n",\n}');
  });
});

describe('endpoints outside the OpenAI API (OCR, vision)', () => {
  const ocr = { baseUrl: 'http://127.0.0.1:8080', path: '/v1/ocr' as const, body: { model: 'svc-ocr-3-2512', image: 'data:image/png;base64,AAA', granularity: 'word', return_bboxes: true } };
  const snippets = buildCodeSnippets(ocr);

  it('cURL posts the body to the endpoint without -N', () => {
    expect(snippets.curl.startsWith('curl http://127.0.0.1:8080/v1/ocr')).toBe(true);
    expect(JSON.parse(curlPayload(snippets.curl))).toEqual(ocr.body);
  });

  it('Python and JavaScript use plain HTTP, not an SDK method that does not exist', () => {
    expect(snippets.python).toContain('requests.post(');
    expect(snippets.python).toContain('"http://127.0.0.1:8080/v1/ocr"');
    expect(snippets.python).toContain('"return_bboxes": True');
    expect(snippets.python).not.toContain('OpenAI');
    expect(snippets.javascript).toContain('await fetch("http://127.0.0.1:8080/v1/ocr"');
    expect(snippets.javascript).not.toContain('openai');
  });
});

describe('shortenDataUrls', () => {
  it('cuts long data: URLs anywhere in the body and says so; leaves the rest alone', () => {
    const long = `data:application/pdf;base64,${'A'.repeat(5000)}`;
    const { value, shortened } = shortenDataUrls({ image: long, messages: [{ content: [{ url: long }] }], model: 'm' });
    expect(shortened).toBe(true);
    const v = value as { image: string; messages: { content: { url: string }[] }[]; model: string };
    expect(v.image.length).toBeLessThan(100);
    expect(v.image).toContain('more characters');
    expect(v.messages[0].content[0].url).toBe(v.image);
    expect(v.model).toBe('m');
    expect(shortenDataUrls({ image: 'https://example.com/a.png' })).toEqual({ value: { image: 'https://example.com/a.png' }, shortened: false });
  });
});
