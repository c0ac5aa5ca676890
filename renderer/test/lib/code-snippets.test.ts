import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCodeSnippets, toPythonLiteral } from '../../src/lib/code-snippets';

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
    expect(snippets.javascript).toContain('baseURL: "http://127.0.0.1:8080/v1"');
    const literal = snippets.javascript.slice(
      snippets.javascript.indexOf('create(') + 7,
      snippets.javascript.indexOf('\n});') + 2,
    );
    expect(JSON.parse(literal)).toEqual(chat.body);
    expect(snippets.javascript).toContain('for await (const chunk of response)');
  });

  it('non-streamed embeddings print vectors instead of iterating chunks', () => {
    const s = buildCodeSnippets({
      baseUrl: 'http://h',
      path: '/v1/embeddings',
      body: { model: 'e', input: ['a', 'b'] },
    });
    expect(s.curl.startsWith('curl http://h/v1/embeddings')).toBe(true);
    expect(s.python).toContain('client.embeddings.create(');
    expect(s.python).toContain('for item in response.data:');
    expect(s.python).not.toContain('extra_body');
  });

  it('a Responses request with MCP tools uses responses.create and prints the streamed text', () => {
    const body = {
      model: 'm',
      input: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'mcp', server_label: 'everything', require_approval: 'always' }],
      stream: true,
    };
    const s = buildCodeSnippets({ baseUrl: 'http://h', path: '/v1/responses', body });
    expect(s.python).toContain('client.responses.create(');
    expect(s.python).toContain('"server_label": "everything"');
    expect(s.python).not.toContain('extra_body');
    expect(s.python).toContain('if event.type == "response.output_text.delta":');
    expect(s.javascript).toContain('client.responses.create(');
    expect(s.javascript).toContain(
      "if (event.type === 'response.output_text.delta') process.stdout.write(event.delta);",
    );
  });
});

describe('toPythonLiteral', () => {
  it('writes booleans, null, nested lists and escaped strings as Python', () => {
    expect(toPythonLiteral({ a: [true, false, null], b: 'q"\n' })).toBe(
      '{\n    "a": [\n        True,\n        False,\n        None,\n    ],\n    "b": "q\\"\\n",\n}',
    );
  });
});

describe('endpoints outside the OpenAI API (OCR, vision)', () => {
  const ocr = {
    baseUrl: 'http://127.0.0.1:8080',
    path: '/v1/ocr' as const,
    body: { model: 'svc-ocr-3-2512', image: 'data:image/png;base64,AAA', granularity: 'word', return_bboxes: true },
  };
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

describe('uploaded files', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452'.repeat(40), 'hex');
  const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
  const request = {
    baseUrl: 'http://127.0.0.1:8080',
    path: '/v1/ocr' as const,
    body: { model: 'svc-ocr-3-2512', image: dataUrl, schema: { $schema: 'x', description: "it's `a` $HOME \\ test" } },
    fileNames: ["scan 1's.png"],
  };
  const snippets = buildCodeSnippets(request);

  it('cURL reads the file from disk and, run in a shell, sends the whole request body', () => {
    expect(snippets.curl).not.toContain(dataUrl.slice(30, 80));
    const dir = mkdtempSync(join(tmpdir(), 'snippet-'));
    try {
      writeFileSync(join(dir, "scan 1's.png"), png);
      // A stand-in for curl that keeps what it was given on standard input.
      const sent = execFileSync('bash', ['-c', `curl() { cat > sent.json; }\n${snippets.curl}`], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: '/nowhere' },
      });
      expect(sent.toString()).toBe('');
      expect(JSON.parse(readFileSync(join(dir, 'sent.json'), 'utf8'))).toEqual(request.body);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Python and JavaScript read the same file and name it in the body', () => {
    expect(snippets.files).toEqual([{ name: "scan 1's.png", mime: 'image/png' }]);
    expect(snippets.python).toMatch(/^import base64\nimport os\nimport requests\n\ndef data_url\(path, mime\):/);
    expect(snippets.python).toContain(`"image": data_url("scan 1's.png", "image/png"),`);
    expect(
      snippets.javascript.startsWith("import { readFileSync } from 'node:fs';\n\nconst dataUrl = (path, mime) =>"),
    ).toBe(true);
    expect(snippets.javascript).toContain(`"image": dataUrl("scan 1's.png", "image/png")`);
    for (const code of [snippets.python, snippets.javascript]) expect(code).not.toContain('base64,iVBOR');
  });

  it('names files it was given no name for by their type, and keeps short data: URLs inline', () => {
    const chat = buildCodeSnippets({
      baseUrl: 'http://h',
      path: '/v1/chat/completions',
      body: {
        model: 'm',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: dataUrl } },
              { type: 'image_url', image_url: { url: dataUrl } },
            ],
          },
        ],
        tiny: 'data:image/png;base64,AA==',
      },
    });
    expect(chat.files.map((f) => f.name)).toEqual(['image.png', 'image-2.png']);
    expect(chat.javascript).toContain('"url": dataUrl("image-2.png", "image/png")');
    expect(chat.javascript.split('\n').slice(0, 4)).toEqual([
      "import { readFileSync } from 'node:fs';",
      "import OpenAI from 'openai';",
      '',
      "const dataUrl = (path, mime) => `data:${mime};base64,${readFileSync(path).toString('base64')}`;",
    ]);
    expect(chat.curl).toContain('"tiny": "data:image/png;base64,AA=="');
  });
});
