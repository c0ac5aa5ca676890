import { describe, expect, it } from 'vitest';
import { toSrt, toVtt } from '../../../src/features/transcription/subtitles';

const segments = [
  { id: 0, start: 0, end: 2.5, text: ' Hello there.' },
  { id: 1, start: 3725.5, end: 3727.042, text: 'Second cue' },
];

describe('subtitle export', () => {
  it('SRT numbers cues from 1 with comma milliseconds', () => {
    expect(toSrt(segments)).toBe(
      '1\n00:00:00,000 --> 00:00:02,500\nHello there.\n\n2\n01:02:05,500 --> 01:02:07,042\nSecond cue\n',
    );
  });

  it('WebVTT starts with its header and uses dot milliseconds', () => {
    expect(toVtt(segments)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nHello there.\n\n01:02:05.500 --> 01:02:07.042\nSecond cue\n',
    );
  });
});
