/** The request a playground is about to send, turned into runnable cURL, Python and JavaScript. */
export interface SnippetRequest {
  /** Gateway origin, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  path: SdkPath | PlainPath;
  body: Record<string, unknown>;
  /** Names for the files uploaded as data: URLs, in the order they appear in the body. */
  fileNames?: readonly string[];
}

/** Endpoints the openai SDK has a method for. */
type SdkPath = '/v1/chat/completions' | '/v1/completions' | '/v1/embeddings' | '/v1/responses';
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
    params: [
      'model',
      'messages',
      'temperature',
      'max_tokens',
      'top_p',
      'stop',
      'seed',
      'response_format',
      'stream',
      'stream_options',
      'n',
    ],
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
  '/v1/responses': {
    python: 'client.responses.create',
    javascript: 'client.responses.create',
    params: [
      'model',
      'input',
      'instructions',
      'tools',
      'previous_response_id',
      'temperature',
      'top_p',
      'max_output_tokens',
      'text',
      'stream',
    ],
  },
};

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The body as an unquoted here-document's text: its `\\`, `$` and backquotes stay literal. */
const hereDocText = (text: string): string => text.replace(/[\\$`]/g, (c) => `\\${c}`);

export function toCurl({ baseUrl, path, body }: SnippetRequest, files: readonly FileRef[] = []): string {
  const head = [
    `curl${body.stream ? ' -N' : ''} ${baseUrl}${path}`,
    `  -H "Authorization: Bearer $SWITCHYARD_API_KEY"`,
    `  -H "Content-Type: application/json"`,
  ];
  const json = JSON.stringify(body, null, 2);
  if (files.length === 0) return [...head, `  -d ${shellQuote(json)}`].join(' \\\n');
  // A file's base64 can be far longer than one command-line argument may be, so the body goes on
  // standard input, with each file read and encoded by the shell.
  const text = files.reduce(
    (t, file) =>
      t.replace(
        JSON.stringify(file.token),
        () => `"data:${file.mime};base64,$(base64 < ${shellQuote(file.name)} | tr -d '\\n')"`,
      ),
    hereDocText(json),
  );
  return `${[...head, '  --data-binary @- <<JSON'].join(' \\\n')}\n${text}\nJSON`;
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

function splitParams(request: SnippetRequest & { path: SdkPath }): {
  known: [string, unknown][];
  extra: Record<string, unknown>;
} {
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

/** The Responses API's text, as it streams or whole. */
function printResponse(language: 'python' | 'javascript', stream: boolean): string {
  if (language === 'python')
    return stream
      ? 'for event in response:\n    if event.type == "response.output_text.delta":\n        print(event.delta, end="", flush=True)'
      : 'print(response.output_text)';
  return stream
    ? "for await (const event of response) {\n  if (event.type === 'response.output_text.delta') process.stdout.write(event.delta);\n}"
    : 'console.log(response.output_text);';
}

function printLoop(path: SdkPath, language: 'python' | 'javascript', stream: boolean): string {
  if (path === '/v1/responses') return printResponse(language, stream);
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

/** An uploaded file in the body: the place-holder it left there, and the file the snippet reads instead. */
interface FileRef {
  token: string;
  mime: string;
  name: string;
}

const BASE64_DATA_URL = /^data:([\w.+-]+\/[\w.+-]+);base64,/;
/** Shorter data: URLs stay inline: they fit on a command line and read fine. */
const INLINE_DATA_URL_MAX = 96;
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/bmp': 'bmp',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
};

const defaultFileName = (mime: string, index: number): string =>
  `${mime.startsWith('image/') ? 'image' : mime === 'application/pdf' ? 'document' : 'file'}${index > 0 ? `-${index + 1}` : ''}.${EXTENSIONS[mime] ?? 'bin'}`;

/** The body with every long base64 data: URL (an uploaded page, image or PDF) replaced by a place-holder, and the files they stand for. */
function extractFiles(
  body: Record<string, unknown>,
  names: readonly string[] = [],
): { body: Record<string, unknown>; files: FileRef[] } {
  const files: FileRef[] = [];
  const walk = (v: unknown): unknown => {
    const mime = typeof v === 'string' && v.length > INLINE_DATA_URL_MAX ? BASE64_DATA_URL.exec(v)?.[1] : undefined;
    if (mime) {
      const token = `@@switchyard-file-${files.length}@@`;
      files.push({ token, mime, name: names[files.length] ?? defaultFileName(mime, files.length) });
      return token;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return { body: walk(body) as Record<string, unknown>, files };
}

const PYTHON_READER = [
  'def data_url(path, mime):',
  '    with open(path, "rb") as f:',
  '        return f"data:{mime};base64," + base64.b64encode(f.read()).decode()',
  '',
];
const JAVASCRIPT_READER = [
  "const dataUrl = (path, mime) => `data:${mime};base64,${readFileSync(path).toString('base64')}`;",
  '',
];

/** A Python or JavaScript snippet that reads `files` from disk where the body had them inline. */
function readingFiles(snippet: string, files: readonly FileRef[], language: 'python' | 'javascript'): string {
  if (files.length === 0) return snippet;
  const reader = language === 'python' ? 'data_url' : 'dataUrl';
  const text = files.reduce(
    (t, file) =>
      t.replace(
        JSON.stringify(file.token),
        () => `${reader}(${JSON.stringify(file.name)}, ${JSON.stringify(file.mime)})`,
      ),
    snippet,
  );
  const lines = text.split('\n');
  // After the imports (the first blank line), or at the top when there are none.
  const afterImports = lines[0].startsWith('import') ? lines.indexOf('') + 1 : 0;
  lines.splice(afterImports, 0, ...(language === 'python' ? PYTHON_READER : JAVASCRIPT_READER));
  lines.unshift(
    ...(language === 'python'
      ? ['import base64']
      : ["import { readFileSync } from 'node:fs';", ...(afterImports === 0 ? [''] : [])]),
  );
  return lines.join('\n');
}

/**
 * The request as cURL, Python and JavaScript; uploaded files are read from disk by name (the
 * `fileNames` given, else image.png, document.pdf, …), so each snippet runs as it is shown.
 */
export function buildCodeSnippets(request: SnippetRequest): CodeSnippets & { files: { name: string; mime: string }[] } {
  const { body, files } = extractFiles(request.body, request.fileNames);
  const withPlaceholders = { ...request, body };
  return {
    curl: toCurl(withPlaceholders, files),
    python: readingFiles(toPython(withPlaceholders), files, 'python'),
    javascript: readingFiles(toJavaScript(withPlaceholders), files, 'javascript'),
    files: files.map(({ name, mime }) => ({ name, mime })),
  };
}
