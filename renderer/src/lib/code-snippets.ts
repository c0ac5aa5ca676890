/** The request a playground is about to send, turned into runnable cURL, Python and JavaScript. */
export interface SnippetRequest {
  /** Gateway origin, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  path: '/v1/chat/completions' | '/v1/completions' | '/v1/embeddings';
  body: Record<string, unknown>;
}

export interface CodeSnippets {
  curl: string;
  python: string;
  javascript: string;
}

const SDK_METHODS: Record<SnippetRequest['path'], { python: string; javascript: string; params: readonly string[] }> = {
  '/v1/chat/completions': {
    python: 'client.chat.completions.create',
    javascript: 'client.chat.completions.create',
    params: ['model', 'messages', 'temperature', 'max_tokens', 'top_p', 'stop', 'seed', 'response_format', 'stream', 'stream_options', 'n'],
  },
  '/v1/completions': {
    python: 'client.completions.create',
    javascript: 'client.completions.create',
    params: ['model', 'prompt', 'max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'stream', 'stream_options', 'n'],
  },
  '/v1/embeddings': {
    python: 'client.embeddings.create',
    javascript: 'client.embeddings.create',
    params: ['model', 'input', 'dimensions', 'encoding_format'],
  },
};

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export function toCurl({ baseUrl, path, body }: SnippetRequest): string {
  const lines = [
    `curl${body.stream ? ' -N' : ''} ${baseUrl}${path}`,
    `  -H "Authorization: Bearer $SWITCHYARD_API_KEY"`,
    `  -H "Content-Type: application/json"`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ];
  return lines.join(' \\\n');
}

/** A JSON value as a Python literal; JSON string escapes are valid Python escapes. */
export function toPythonLiteral(value: unknown, indent = 0): string {
  const pad = (n: number) => ' '.repeat(n);
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number' || typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => `${pad(indent + 4)}${toPythonLiteral(v, indent + 4)}`);
    return `[\n${items.join(',\n')},\n${pad(indent)}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const items = entries.map(([k, v]) => `${pad(indent + 4)}${JSON.stringify(k)}: ${toPythonLiteral(v, indent + 4)}`);
  return `{\n${items.join(',\n')},\n${pad(indent)}}`;
}

function splitParams(request: SnippetRequest): { known: [string, unknown][]; extra: Record<string, unknown> } {
  const { params } = SDK_METHODS[request.path];
  const known: [string, unknown][] = [];
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request.body)) {
    if (value === undefined) continue;
    if (params.includes(key)) known.push([key, value]);
    else extra[key] = value;
  }
  return { known, extra };
}

function printLoop(path: SnippetRequest['path'], language: 'python' | 'javascript', stream: boolean): string {
  const chat = path === '/v1/chat/completions';
  if (path === '/v1/embeddings') {
    return language === 'python'
      ? 'for item in response.data:\n    print(item.index, item.embedding[:4])'
      : 'for (const item of response.data) console.log(item.index, item.embedding.slice(0, 4));';
  }
  if (language === 'python') {
    if (!stream) return `print(response.choices[0].${chat ? 'message.content' : 'text'})`;
    return `for chunk in response:\n    if chunk.choices:\n        print(chunk.choices[0].${chat ? 'delta.content or ""' : 'text'}, end="", flush=True)`;
  }
  if (!stream) return `console.log(response.choices[0].${chat ? 'message.content' : 'text'});`;
  return `for await (const chunk of response) {\n  process.stdout.write(chunk.choices[0]?.${chat ? "delta?.content ?? ''" : "text ?? ''"});\n}`;
}

export function toPython(request: SnippetRequest): string {
  const { known, extra } = splitParams(request);
  const args = known.map(([k, v]) => `    ${k}=${toPythonLiteral(v, 4)},`);
  if (Object.keys(extra).length) args.push(`    extra_body=${toPythonLiteral(extra, 4)},`);
  return [
    'import os',
    'from openai import OpenAI',
    '',
    `client = OpenAI(base_url=${JSON.stringify(`${request.baseUrl}/v1`)}, api_key=os.environ["SWITCHYARD_API_KEY"])`,
    '',
    `response = ${SDK_METHODS[request.path].python}(`,
    ...args,
    ')',
    printLoop(request.path, 'python', request.body.stream === true),
  ].join('\n');
}

export function toJavaScript(request: SnippetRequest): string {
  const { known, extra } = splitParams(request);
  // The openai SDK forwards unknown body keys unchanged, so gateway extensions go in the same object.
  const body = Object.fromEntries([...known, ...Object.entries(extra)]);
  return [
    "import OpenAI from 'openai';",
    '',
    `const client = new OpenAI({ baseURL: ${JSON.stringify(`${request.baseUrl}/v1`)}, apiKey: process.env.SWITCHYARD_API_KEY });`,
    '',
    `const response = await ${SDK_METHODS[request.path].javascript}(${JSON.stringify(body, null, 2)});`,
    printLoop(request.path, 'javascript', request.body.stream === true),
  ].join('\n');
}

export function buildCodeSnippets(request: SnippetRequest): CodeSnippets {
  return { curl: toCurl(request), python: toPython(request), javascript: toJavaScript(request) };
}
