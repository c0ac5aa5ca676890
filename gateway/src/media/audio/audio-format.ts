export interface AudioFormat {
  /** Short name: wav, mp3, ogg, flac, m4a, webm. */
  name: string;
  mimeType: string;
}

/** Recognises the audio containers transcription takes, from their first bytes. */
export function sniffAudioFormat(bytes: Buffer): AudioFormat | undefined {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length < 12) return undefined;
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return { name: 'wav', mimeType: 'audio/wav' };
  if (ascii(0, 4) === 'fLaC') return { name: 'flac', mimeType: 'audio/flac' };
  if (ascii(0, 4) === 'OggS') return { name: 'ogg', mimeType: 'audio/ogg' };
  if (ascii(4, 8) === 'ftyp') return { name: 'm4a', mimeType: 'audio/mp4' };
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return { name: 'webm', mimeType: 'audio/webm' };
  if (ascii(0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0))
    return { name: 'mp3', mimeType: 'audio/mpeg' };
  return undefined;
}

/** Duration of a PCM WAV file from its header, when it is one; undefined otherwise. */
export function wavDurationSeconds(bytes: Buffer): number | undefined {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF') return undefined;
  let offset = 12;
  let byteRate: number | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 16 <= bytes.length) byteRate = bytes.readUInt32LE(offset + 16);
    if (id === 'data') return byteRate ? Math.min(size, bytes.length - offset - 8) / byteRate : undefined;
    offset += 8 + size + (size % 2);
  }
  return undefined;
}
