import { useEffect, useRef, useState } from 'react';
import { ErrorNotice } from '../../error-notice';
import { formatSize } from '../format-size';
import { useDownloads } from '../api/list-downloads';
import { useOcrLanguages } from '../api/list-ocr-languages';
import { useStartDownload } from '../api/start-download';
import type { ModelDownload, OcrLanguage } from '../local-model-wire';
import { DownloadableEntry } from './downloadable-entry';
import { useInstallWatch } from './use-install-watch';
import './local-models.css';

const SOURCE_LABEL: Record<NonNullable<OcrLanguage['source']>, string> = {
  system: 'Debian package',
  npm: 'npm package',
  download: 'downloaded',
};

function downloadOf(language: OcrLanguage, downloads: readonly ModelDownload[]): ModelDownload | undefined {
  return downloads.find(
    (download) =>
      download.repo === language.repo &&
      download.file === language.file &&
      download.status !== 'cancelled' &&
      download.status !== 'completed',
  );
}

/**
 * The Models page's "OCR languages": the languages the OCR engine reads now, with where each model
 * comes from, and every other language Tesseract has, each one click from being read. Owners only.
 */
export function OcrLanguagesSection() {
  const languages = useOcrLanguages();
  const downloads = useDownloads();
  const start = useStartDownload();
  const [filter, setFilter] = useState('');
  const section = useRef<HTMLElement>(null);
  const loaded = languages.data !== undefined;
  useInstallWatch(downloads.data?.data);
  // The OCR page's "Add a language" link lands here once the list has loaded.
  useEffect(() => {
    if (loaded && window.location.hash === '#ocr-languages') section.current?.scrollIntoView({ block: 'start' });
  }, [loaded]);
  if (languages.isError || !languages.data) return null;
  const installed = languages.data.data.filter((language) => language.installed);
  const needle = filter.trim().toLowerCase();
  const available = languages.data.data
    .filter((language) => !language.installed)
    .filter((language) => !needle || language.name.toLowerCase().includes(needle) || language.code.includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section ref={section} className="card stack local-offer" aria-label="OCR languages" id="ocr-languages">
      <div>
        <h2 className="card-title">OCR languages</h2>
        <span className="small faint">
          The OCR engine finds each page&apos;s language and reads it with that language&apos;s model. Models come from
          Debian&apos;s tesseract-ocr packages, npm&apos;s @tesseract.js-data packages, or Tesseract&apos;s own
          tessdata_fast on GitHub (checked against its git blob id); a language added here is read from the next page
          on.
        </span>
      </div>
      <div className="stack">
        <h3 className="card-title ocr-language-heading">Installed ({installed.length})</h3>
        <ul className="row chip-row ocr-language-chips" aria-label="Installed OCR languages">
          {installed.map((language) => (
            <li key={language.code} className="chip" aria-label={language.name}>
              {language.name}&nbsp;
              <span className="faint mono">
                {language.code} · {SOURCE_LABEL[language.source ?? 'system']}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div className="stack">
        <div className="row ocr-language-head">
          <h3 className="card-title ocr-language-heading">Available to download ({available.length})</h3>
          <label className="field">
            <span className="visually-hidden">Find a language</span>
            <input
              className="input"
              type="search"
              placeholder="Find a language"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          </label>
        </div>
        {start.isError && <ErrorNotice error={start.error} title="The download could not start" />}
        <ul className="local-catalog ocr-language-list" aria-label="OCR languages to download">
          {available.map((language) => {
            const current = downloadOf(language, downloads.data?.data ?? []);
            return (
              <DownloadableEntry
                key={language.code}
                name={language.name}
                current={current}
                action="Add"
                starting={start.isPending}
                onStart={() => start.mutate({ repo: language.repo, file: language.file, revision: language.revision })}
              >
                <span className="small faint">
                  <span className="mono">{language.code}</span>
                  {language.size_bytes !== null && ` · ${formatSize(language.size_bytes)}`}
                </span>
              </DownloadableEntry>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
