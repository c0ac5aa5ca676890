/** Image sizes and count a generation route offers unless its config says otherwise. */
export const DEFAULT_IMAGE_SIZES = [
  '256x256',
  '512x512',
  '1024x1024',
  '1024x1536',
  '1536x1024',
  '1024x1792',
  '1792x1024',
];
export const DEFAULT_MAX_IMAGES = 4;
