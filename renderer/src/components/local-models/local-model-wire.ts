export type {
  CatalogEntry,
  LocalModelFile,
  ModelDownload,
  OcrLanguage,
} from '../../../../gateway/src/wire/local-model-schemas';

/** Downloads still moving: the list is polled while any is. */
export const isActive = (status: string): boolean =>
  status === 'queued' || status === 'downloading' || status === 'verifying';
