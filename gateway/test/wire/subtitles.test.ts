import { describe, expect, it } from 'vitest';
import { toSrt, toVtt } from '../../src/wire/subtitles.js';

const segments = [
  { id: 0, start: 0, end: 1.5, text: ' Hello there. ' },
  { id: 1, start: 3725.5, end: 3727, text: 'First line.\n\n\nSecond line.' },
];

describe('subtitles', () => {
  it('writes SubRip cues numbered from 1 with a comma before the milliseconds', () => {
    expect(toSrt(segments)).toBe(
      '1\n00:00:00,000 --> 00:00:01,500\nHello there.\n\n2\n01:02:05,500 --> 01:02:07,000\nFirst line.\nSecond line.\n',
    );
  });

  it('writes WebVTT with its header, and a blank line inside a segment never ends its cue early', () => {
    const vtt = toVtt(segments);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello there.\n\n01:02:05.500 --> 01:02:07.000\nFirst line.\nSecond line.\n',
    );
    // Every cue is its timing line and its text: no text line stands alone after a blank line.
    for (const cue of vtt.split('\n\n').slice(1)) expect(cue).toMatch(/^\d\d:\d\d:\d\d\.\d{3} --> /);
  });
});
