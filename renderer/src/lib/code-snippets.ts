/** The request a playground is about to send, turned into runnable cURL, Python and JavaScript. */
export interface SnippetRequest {
  /** Gateway origin, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  path: SdkPath | PlainPath;
  body: Record<string, unknown>;
}

/** Endpoints the openai SDK has a method for. */
type SdkPath = '/v1/chat/completions' | '/v1/completions' | '/v1/embeddings';
/** Gateway endpoints outside the OpenAI API: plain HTTP in every language. */
type PlainPath = '/v1/ocr' | '/v1/vision/generate' | '/v1/vision/analyze';

const isSdkPath = (path: SnippetRequest['path']): path is SdkPath => path in SDK_METHODS;

export interface CodeSnippets {
  curl: string;
  python: string;
  javascript: string;
}

const SDK_METHODS: Record<SdkPath, { python: string; javascript: string; params: readonly string[] }> = {
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

function splitParams(request: SnippetRequest & { path: SdkPath }): { known: [string, unknown][]; extra: Record<string, unknown> } {
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

function printLoop(path: SdkPath, language: 'python' | 'javascript', stream: boolean): string {
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

function plainPython({ baseUrl, path, body }: SnippetRequest): string {
  return [
    'import os',
    'import requests',
    '',
    'response = requests.post(',
    `    ${JSON.stringify(`${baseUrl}${path}`)},`,
    '    headers={"Authorization": f"Bearer {os.environ[\'SWITCHYARD_API_KEY\']}"},',
    `    json=${toPythonLiteral(body, 4)},`,
    ')',
    'response.raise_for_status()',
    'print(response.json())',
  ].join('\n');
}

function plainJavaScript({ baseUrl, path, body }: SnippetRequest): string {
  return [
    `const response = await fetch(${JSON.stringify(`${baseUrl}${path}`)}, {`,
    "  method: 'POST',",
    "  headers: { Authorization: `Bearer ${process.env.SWITCHYARD_API_KEY}`, 'Content-Type': 'application/json' },",
    `  body: JSON.stringify(${JSON.stringify(body, null, 2).replace(/\n/g, '\n  ')}),`,
    '});',
    'if (!response.ok) throw new Error(await response.text());',
    'console.log(await response.json());',
  ].join('\n');
}

export function toPython(request: SnippetRequest): string {
  const { path } = request;
  if (!isSdkPath(path)) return plainPython(request);
  const { known, extra } = splitParams({ ...request, path });
  const args = known.map(([k, v]) => `    ${k}=${toPythonLiteral(v, 4)},`);
  if (Object.keys(extra).length) args.push(`    extra_body=${toPythonLiteral(extra, 4)},`);
  return [
    'import os',
    'from openai import OpenAI',
    '',
    `client = OpenAI(base_url=${JSON.stringify(`${request.baseUrl}/v1`)}, api_key=os.environ["SWITCHYARD_API_KEY"])`,
    '',
    `response = ${SDK_METHODS[path].python}(`,
    ...args,
    ')',
    printLoop(path, 'python', request.body.stream === true),
  ].join('\n');
}

export function toJavaScript(request: SnippetRequest): string {
  const { path } = request;
  if (!isSdkPath(path)) return plainJavaScript(request);
  const { known, extra } = splitParams({ ...request, path });
  // The openai SDK forwards unknown body keys unchanged, so gateway extensions go in the same object.
  const body = Object.fromEntries([...known, ...Object.entries(extra)]);
  return [
    "import OpenAI from 'openai';",
    '',
    `const client = new OpenAI({ baseURL: ${JSON.stringify(`${request.baseUrl}/v1`)}, apiKey: process.env.SWITCHYARD_API_KEY });`,
    '',
    `const response = await ${SDK_METHODS[path].javascript}(${JSON.stringify(body, null, 2)});`,
    printLoop(path, 'javascript', request.body.stream === true),
  ].join('\n');
}

const DATA_URL_KEEP = 48;

/**
 * The body with every long data: URL (an uploaded page, image or PDF) cut to its head, so the
 * dialog stays readable; `shortened` says whether anything was cut.
 */
export function shortenDataUrls(value: unknown): { value: unknown; shortened: boolean } {
  let shortened = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && v.startsWith('data:') && v.length > DATA_URL_KEEP * 2) {
      shortened = true;
      return `${v.slice(0, DATA_URL_KEEP)}…(${v.length - DATA_URL_KEEP} more characters)`;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { value: walk(value), shortened };
}

export function buildCodeSnippets(request: SnippetRequest): CodeSnippets {
  return { curl: toCurl(request), python: toPython(request), javascript: toJavaScript(request) };
}
