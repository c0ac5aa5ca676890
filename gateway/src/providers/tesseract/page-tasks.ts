import type { GrayImage } from '../../media/image/decode-image.js';
import { sharedGray } from '../../media/work-pool/work-task.js';
import { workTask } from '../../media/work-pool/work-task.js';
import type { CleanedPixels, PreprocessedPage, PreprocessOptions } from './preprocess/preprocess-page.js';
import { inThreadPixels, type PageSurvey } from './survey-page.js';

// The tasks pooledPagePixels runs on the work pool's threads (see WorkPool): a page's pixel work,
// its images returned in shared memory.

const sharedBinary = (binary: Uint8Array): Uint8Array =>
  sharedGray({ width: binary.length, height: 1, data: binary }).data;
const sharedCleaned = (cleaned: CleanedPixels): CleanedPixels => ({
  ...cleaned,
  image: sharedGray(cleaned.image),
  binary: sharedBinary(cleaned.binary),
});
const sharedPrepared = (prepared: PreprocessedPage): PreprocessedPage => ({
  ...prepared,
  image: sharedGray(prepared.image),
});

export const survey = workTask(
  async ({
    image,
    options,
  }: {
    image: GrayImage;
    options: { preprocess: boolean; maxPixels: number };
  }): Promise<PageSurvey> => {
    const found = await inThreadPixels.survey(image, options);
    if (found.kind === 'blank') return found;
    if (found.kind === 'distinct') return { kind: 'distinct', image: sharedGray(found.image) };
    return {
      ...found,
      cleaned: found.cleaned && sharedCleaned(found.cleaned),
      preparedFirst: found.preparedFirst && sharedPrepared(found.preparedFirst),
    };
  },
);

export const preprocess = workTask(
  async ({
    image,
    options,
    cleaned,
  }: {
    image: GrayImage;
    options: PreprocessOptions;
    cleaned?: CleanedPixels;
  }): Promise<PreprocessedPage> => sharedPrepared(await inThreadPixels.preprocess(image, options, cleaned)),
);

export const blankCut = workTask(({ image }: { image: GrayImage }) => inThreadPixels.blankCut(image));

export const png = workTask(
  async ({ image }: { image: GrayImage }): Promise<Uint8Array> => new Uint8Array(await inThreadPixels.png(image)),
  (encoded) => [encoded.buffer as ArrayBuffer],
);
