import { Type, type Static } from '@sinclair/typebox';

export const DownloadStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('downloading'),
  Type.Literal('paused'),
  Type.Literal('verifying'),
  Type.Literal('completed'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);
export type DownloadStatus = Static<typeof DownloadStatus>;

export const ModelDownload = Type.Object({
  id: Type.String(),
  object: Type.Literal('local_model.download'),
  repo: Type.String(),
  file: Type.String(),
  revision: Type.String(),
  status: DownloadStatus,
  bytes_total: Type.Union([Type.Integer(), Type.Null()], { description: 'null until the hub has told the size' }),
  bytes_done: Type.Integer(),
  bytes_per_second: Type.Number(),
  eta_seconds: Type.Union([Type.Number(), Type.Null()]),
  sha256: Type.Union([Type.String(), Type.Null()]),
  model: Type.Union([Type.String(), Type.Null()], { description: 'The model id the completed file is served as' }),
  error: Type.Optional(Type.String()),
  created_at: Type.Integer(),
});
export type ModelDownload = Static<typeof ModelDownload>;

export const Capability = Type.Union([
  Type.Literal('chat'),
  Type.Literal('completions'),
  Type.Literal('embeddings'),
  Type.Literal('transcription'),
]);

export const CatalogEntry = Type.Object({
  id: Type.String(),
  name: Type.String(),
  repo: Type.String(),
  file: Type.String({ description: 'The main file' }),
  files: Type.Array(Type.String(), { description: 'Every file the model needs (download each); the main file first' }),
  revision: Type.String(),
  size_bytes: Type.Integer(),
  licence: Type.String(),
  ram_bytes: Type.Integer({ description: 'Memory needed to run it, roughly' }),
  capabilities: Type.Array(Capability),
  model: Type.String({ description: 'The model id it becomes once downloaded' }),
  description: Type.String(),
});
export type CatalogEntry = Static<typeof CatalogEntry>;

export const HubFile = Type.Object({
  path: Type.String(),
  size_bytes: Type.Integer(),
  sha256: Type.Union([Type.String(), Type.Null()]),
});
export type HubFile = Static<typeof HubFile>;

export const HubModel = Type.Object({
  repo: Type.String(),
  downloads: Type.Integer(),
  likes: Type.Integer(),
  tags: Type.Array(Type.String()),
  gated: Type.Boolean(),
  files: Type.Array(HubFile),
});
export type HubModel = Static<typeof HubModel>;

export const LocalModelFile = Type.Object({
  name: Type.String({ description: 'File name in the models folder' }),
  model: Type.String({ description: 'The model id it is served as' }),
  kind: Type.Union([Type.Literal('gguf'), Type.Literal('speech'), Type.Literal('ocr_language')]),
  size_bytes: Type.Integer(),
  architecture: Type.Union([Type.String(), Type.Null()]),
  quantization: Type.Union([Type.String(), Type.Null()]),
  context_length: Type.Union([Type.Integer(), Type.Null()]),
  capabilities: Type.Array(Capability),
  loaded: Type.Boolean(),
});
export type LocalModelFile = Static<typeof LocalModelFile>;

export const OcrLanguage = Type.Object({
  object: Type.Literal('local_model.ocr_language'),
  code: Type.String({ description: "Tesseract's code: the name `languages` takes in an OCR request" }),
  name: Type.String(),
  installed: Type.Boolean(),
  source: Type.Union([Type.Literal('system'), Type.Literal('npm'), Type.Literal('download'), Type.Null()], {
    description:
      "Where the installed model comes from: Debian's tesseract-ocr-<lang> package (system), npm's @tesseract.js-data/<lang> package, or a download; null when not installed",
  }),
  size_bytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Size of the download' }),
  repo: Type.String({ description: 'Download it with POST /v1/local-models/downloads {repo, file, revision}' }),
  file: Type.String(),
  revision: Type.String(),
});
export type OcrLanguage = Static<typeof OcrLanguage>;
