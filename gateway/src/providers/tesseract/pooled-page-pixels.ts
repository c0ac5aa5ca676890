import { sharedGray } from '../../media/image/shared-gray.js';
import { taskModule } from '../../media/work-pool/task-module.js';
import type { WorkPool } from '../../media/work-pool/work-pool.js';
import type { PagePixels } from './survey-page.js';

const PAGE_TASKS = taskModule(import.meta.url, 'page-tasks');

/** A page's pixel work (survey, preprocessing, the cut, PNG encoding) on the work pool's threads, for one request (`signal`). */
export function pooledPagePixels(pool: WorkPool, signal: AbortSignal): PagePixels {
  return {
    survey: (image, options) =>
      pool.run({ image: sharedGray(image), options }, { module: PAGE_TASKS, name: 'survey', signal }),
    preprocess: (image, options, cleaned) =>
      pool.run({ image: sharedGray(image), options, cleaned }, { module: PAGE_TASKS, name: 'preprocess', signal }),
    blankCut: (image) => pool.run({ image: sharedGray(image) }, { module: PAGE_TASKS, name: 'blankCut', signal }),
    png: (image) => pool.run({ image: sharedGray(image) }, { module: PAGE_TASKS, name: 'png', signal }),
  };
}
