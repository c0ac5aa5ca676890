/** What the chat composer attaches: images as image parts, text files quoted into the message. */
export const TEXT_EXTENSIONS = [
  'txt',
  'md',
  'markdown',
  'json',
  'jsonl',
  'csv',
  'tsv',
  'log',
  'yaml',
  'yml',
  'xml',
  'html',
  'ts',
  'tsx',
  'js',
  'py',
  'sql',
  'sh',
];
export const ATTACH_ACCEPT = ['image/*', 'text/*', ...TEXT_EXTENSIONS.map((e) => `.${e}`)].join(',');
export const MAX_TEXT_ATTACHMENT_BYTES = 512 * 1024;

const extension = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

export function isTextFile(file: File): boolean {
  return (
    file.type.startsWith('text/') || file.type === 'application/json' || TEXT_EXTENSIONS.includes(extension(file.name))
  );
}

export function sortAttachments(files: File[]): { images: File[]; texts: File[]; refused: string[] } {
  const images: File[] = [];
  const texts: File[] = [];
  const refused: string[] = [];
  for (const file of files) {
    if (file.type.startsWith('image/')) images.push(file);
    else if (isTextFile(file) && file.size > MAX_TEXT_ATTACHMENT_BYTES)
      refused.push(`${file.name} is larger than ${MAX_TEXT_ATTACHMENT_BYTES / 1024} KB; paste the part you need.`);
    else if (isTextFile(file)) texts.push(file);
    else
      refused.push(
        `${file.name} is not an image or a text file; chat accepts images and text (.txt, .md, .json, .csv…). Use Documents for PDFs.`,
      );
  }
  return { images, texts, refused };
}

/** A text file as a fenced block under its name, with a fence longer than any inside it. */
export function attachedTextBlock(name: string, content: string): string {
  const longest = Math.max(2, ...[...content.matchAll(/`{3,}/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${name}:\n${fence}${extension(name) && extension(name) !== 'txt' ? extension(name) : ''}\n${content.replace(/\n$/, '')}\n${fence}`;
}
