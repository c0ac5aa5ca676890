/**
 * OCR in many languages: the gateway's native engine, told nothing, beside the `tesseract` command given
 * the right language (`-l <lang>`), on pages of the Universal Declaration of Human Rights in each
 * language the machine has a model for (clean, small print, two columns, degraded; see
 * gateway/test/support/language-pages.ts and bench/ocr/SOURCES.md). CER per language; Chinese and
 * Japanese are compared without whitespace (they are written without spaces between words).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { blocksText } from '../../gateway/src/ocr-layout/reading-order.js';
import type { ProviderInstance } from '../../gateway/src/providers/contracts/provider-instance.js';
import { listNativeLanguages, tsvToOcrBlocks } from '../../gateway/src/providers/tesseract/native-engine.js';
import {
  LANGUAGE_PAGE_KINDS,
  makeLanguagePage,
  UDHR_LANGUAGES,
  type UdhrLanguage,
} from '../../gateway/test/support/language-pages.js';
import { characterErrorRate } from './error-rates.js';

const exec = promisify(execFile);
const UNSPACED: ReadonlySet<string> = new Set(['jpn', 'chi_sim']);

interface LanguageRow {
  language: UdhrLanguage;
  pages: number;
  gateway: number;
  command: number;
  english: number;
  detected: string[];
  gatewaySeconds: number;
  commandSeconds: number;
}

const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;
const pad = (value: string, width: number): string => value.padEnd(width);
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

async function commandText(file: string, language: string): Promise<{ text: string; seconds: number }> {
  const start = performance.now();
  const { stdout } = await exec('tesseract', [file, 'stdout', '-l', language, 'tsv'], { maxBuffer: 64 << 20 });
  return { text: blocksText(tsvToOcrBlocks(stdout)), seconds: (performance.now() - start) / 1000 };
}

/**
 * Per language: the gateway's CER (no language named), the command's with the right language and with
 * English only, the languages the gateway reported, and pages/s of both. Languages without a model
 * installed are listed and skipped.
 */
export async function measureLanguages(
  provider: ProviderInstance,
  dir: string,
  { quick, perPage, only }: { quick: boolean; perPage: boolean; only?: string[] },
): Promise<void> {
  const installed = await listNativeLanguages('tesseract');
  const languages = (Object.keys(UDHR_LANGUAGES) as UdhrLanguage[]).filter(
    (l) => installed.includes(l) && (!only || only.includes(l)),
  );
  const absent = Object.keys(UDHR_LANGUAGES).filter((l) => !installed.includes(l));
  const kinds = quick ? LANGUAGE_PAGE_KINDS.slice(0, 2) : LANGUAGE_PAGE_KINDS;
  console.log(
    `\nLanguages: ${languages.length} with a model installed (${languages.join(', ')}), ${kinds.length} pages each (${kinds.join(', ')}).` +
      (absent.length ? ` No model for ${absent.join(', ')} (apt-get install tesseract-ocr-<lang>): skipped.` : ''),
  );
  console.log(
    'The gateway is told nothing; the command is given the right language (-l), and English (-l eng) for reference.\n',
  );
  const rows: LanguageRow[] = [];
  for (const language of languages) {
    const row: LanguageRow = {
      language,
      pages: 0,
      gateway: 0,
      command: 0,
      english: 0,
      detected: [],
      gatewaySeconds: 0,
      commandSeconds: 0,
    };
    const cer = (truth: string, text: string): number =>
      UNSPACED.has(language)
        ? characterErrorRate(truth.replace(/\s+/g, ''), text.replace(/\s+/g, ''))
        : characterErrorRate(truth, text);
    for (const kind of kinds) {
      const page = await makeLanguagePage(language, kind);
      const file = path.join(dir, `${language}-${kind}.png`);
      await writeFile(file, page.image);
      const start = performance.now();
      const result = await provider.capabilities.ocr!.ocr({
        model: 'bench',
        document: page.image,
        mimeType: page.mimeType,
        signal: new AbortController().signal,
      });
      row.gatewaySeconds += (performance.now() - start) / 1000;
      const ours = result.pages.map((p) => p.text).join('\n');
      const theirs = await commandText(file, language);
      row.commandSeconds += theirs.seconds;
      const english = await commandText(file, 'eng');
      const scores = [cer(page.text, ours), cer(page.text, theirs.text), cer(page.text, english.text)];
      row.gateway += scores[0];
      row.command += scores[1];
      row.english += scores[2];
      row.pages++;
      const found = result.pages[0]?.language;
      row.detected.push(found ? `${found.detected ?? '?'}${found.missing ? '(missing)' : ''}` : '-');
      if (perPage)
        console.log(
          `${pad(`${language}/${kind}`, 24)} gateway ${pad(pct(scores[0]), 7)} command ${pad(pct(scores[1]), 7)} eng ${pad(pct(scores[2]), 7)} read as ${found?.read.join('+') ?? '-'}`,
        );
    }
    rows.push(row);
  }
  console.log(
    `${pad('language', 10)}${pad('pages', 7)}${pad('gateway', 9)}${pad('command', 9)}${pad('ratio', 7)}${pad('cmd eng', 9)}${pad('gw p/s', 8)}${pad('cmd p/s', 9)}detected`,
  );
  for (const r of rows) {
    const ratio = r.command > 0 ? (r.gateway / r.command).toFixed(2) : r.gateway === 0 ? '1.00' : 'inf';
    console.log(
      `${pad(r.language, 10)}${pad(String(r.pages), 7)}${pad(pct(r.gateway / r.pages), 9)}${pad(pct(r.command / r.pages), 9)}${pad(ratio, 7)}${pad(pct(r.english / r.pages), 9)}${pad((r.pages / r.gatewaySeconds).toFixed(2), 8)}${pad((r.pages / r.commandSeconds).toFixed(2), 9)}${r.detected.join(' ')}`,
    );
  }
  const all = (pick: (r: LanguageRow) => number): string => pct(mean(rows.map((r) => pick(r) / r.pages)));
  console.log(
    `${pad('mean', 10)}${pad(String(rows.reduce((n, r) => n + r.pages, 0)), 7)}${pad(
      all((r) => r.gateway),
      9,
    )}${pad(
      all((r) => r.command),
      9,
    )}${pad('', 7)}${pad(
      all((r) => r.english),
      9,
    )}`,
  );
}
