function readWith(file: Blob, read: (reader: FileReader) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    read(reader);
  });
}

export function readFileAsDataUrl(file: Blob): Promise<string> {
  return readWith(file, (reader) => reader.readAsDataURL(file));
}

export function readFileAsText(file: Blob): Promise<string> {
  return readWith(file, (reader) => reader.readAsText(file));
}
